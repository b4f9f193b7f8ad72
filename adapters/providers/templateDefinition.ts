// A template as submitted (Meta's create request form, with its samples) read as the spec's Template, the form
// every list and send works with. Shared by the sandbox (whose business account is the templates written here)
// and the resolvers that overlay what the provider decided on the provider's own list.
import type { DefinitionButton, DefinitionComponent, Template, TemplateButton, TemplateComponent } from './types.js';

/** The text WhatsApp shows on a copy-code button, which Meta's create request does not carry. */
const COPY_CODE_TEXT = 'Copy offer code';

function buttonOf(button: DefinitionButton): TemplateButton {
  switch (button.type) {
    case 'QUICK_REPLY':
      return { type: button.type, text: button.text };
    case 'URL':
      return { type: button.type, text: button.text, url: button.url, ...(button.example ? { example: button.example } : {}) };
    case 'PHONE_NUMBER':
      return { type: button.type, text: button.text, phone_number: button.phone_number };
    case 'COPY_CODE':
      return { type: button.type, text: COPY_CODE_TEXT, example: [button.example] };
  }
}

export function componentOf(component: DefinitionComponent): TemplateComponent {
  switch (component.type) {
    case 'HEADER':
      return { type: 'HEADER', format: component.format, ...(component.text !== undefined ? { text: component.text } : {}) };
    case 'BODY':
    case 'FOOTER':
      return { type: component.type, text: component.text };
    case 'BUTTONS':
      return { type: 'BUTTONS', buttons: component.buttons.map(buttonOf) };
  }
}

export type TemplateState = Pick<Template, 'id' | 'name' | 'language' | 'status' | 'category' | 'quality_score' | 'rejected_reason'>;

export function templateOfDefinition(state: TemplateState, components: readonly DefinitionComponent[]): Template {
  const { quality_score, rejected_reason, ...rest } = state;
  return {
    ...rest,
    components: components.map(componentOf),
    ...(quality_score ? { quality_score } : {}),
    ...(rejected_reason ? { rejected_reason } : {}),
  };
}

/** The body's text of a definition. */
export function bodyText(components: readonly DefinitionComponent[]): string {
  const body = components.find((component) => component.type === 'BODY');
  return body?.type === 'BODY' ? body.text : '';
}
