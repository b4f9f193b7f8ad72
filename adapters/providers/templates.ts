// How a template's variable slots are filled, shared by the send path (which validates and renders) and the
// sandbox (which checks what it is sent, as the real provider does). A template's slots: a media header, the
// header text's variables, the body's variables — positional ({{1}}) or named ({{first_name}}, Meta's
// parameter_format NAMED) — and its buttons' variables (a URL button whose url holds {{1}}, a copy-code
// button; a quick-reply button may carry a payload). A send fills them as TemplateValues; the spec's flat
// `parameters` list fills positional slots in reading order: a media header's link, the header text's
// {{n}}, then the body's {{n}}. The provider components follow Meta's request format:
// https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates
import type { ButtonParameter, HeaderFormat, MediaKind, OutboundContent, Template, TemplateComponentParameters } from './types.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*|\d+)\s*\}\}/g;

/** The variables of a text in order of first appearance: `1`, `2` … or names. */
export function placeholders(text: string | undefined): string[] {
  return [...new Set([...(text ?? '').matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

function isNamed(names: string[]): boolean {
  return names.some((name) => !/^\d+$/.test(name));
}

/** Positional variables are filled by position ({{2}} is the second value), named ones by name. */
function render(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

const MEDIA_FORMATS: Partial<Record<HeaderFormat, MediaKind>> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' };

export const BUTTON_SUB_TYPES = ['url', 'copy_code', 'quick_reply'] as const;
export type ButtonSubType = (typeof BUTTON_SUB_TYPES)[number];

export type ButtonSlot = { index: number; sub_type: ButtonSubType; required: boolean };

export type TemplateSlots = {
  headerMedia: MediaKind | null;
  headerTexts: string[];
  body: string[];
  named: boolean;
  buttons: ButtonSlot[];
};

const BUTTON_SUB_TYPE: Record<string, ButtonSubType> = { URL: 'url', COPY_CODE: 'copy_code', QUICK_REPLY: 'quick_reply' };

export function templateSlots(template: Template): TemplateSlots {
  const header = template.components.find((component) => component.type === 'HEADER');
  const body = template.components.find((component) => component.type === 'BODY');
  const buttons = template.components.find((component) => component.type === 'BUTTONS')?.buttons ?? [];
  const bodyNames = placeholders(body?.text);
  const headerTexts = header?.format === 'TEXT' ? placeholders(header.text) : [];
  return {
    headerMedia: header ? (MEDIA_FORMATS[header.format] ?? null) : null,
    headerTexts,
    body: bodyNames,
    named: isNamed([...bodyNames, ...headerTexts]),
    buttons: buttons.flatMap((button, index): ButtonSlot[] => {
      const subType = BUTTON_SUB_TYPE[button.type.toUpperCase()];
      if (subType === 'url') return placeholders(button.url).length ? [{ index, sub_type: 'url', required: true }] : [];
      if (subType === 'copy_code') return [{ index, sub_type: 'copy_code', required: true }];
      if (subType === 'quick_reply') return [{ index, sub_type: 'quick_reply', required: false }];
      return [];
    }),
  };
}

/** A header media by https link or by a media id the provider gave for an upload. */
export type HeaderMedia = { type: MediaKind; link?: string | undefined; id?: string | undefined };

/** The values of a template's slots. */
export type TemplateValues = {
  header: { text: string } | HeaderMedia | null;
  /** Positional values in order, or named values by name. */
  body: string[] | Record<string, string>;
  buttons: { index: number; sub_type: ButtonSubType; value: string }[];
};

/** The flat `parameters` list as TemplateValues (already checked to match its slots). */
export function valuesFromList(slots: TemplateSlots, parameters: readonly string[]): TemplateValues {
  let next = 0;
  const take = (count: number) => parameters.slice(next, (next += count));
  const media = slots.headerMedia ? take(1)[0] : undefined;
  const headerTexts = take(slots.headerTexts.length);
  const body = take(slots.body.length);
  return {
    header: slots.headerMedia ? { type: slots.headerMedia, link: media ?? '' } : headerTexts.length ? { text: headerTexts[0]! } : null,
    // A named template's variables take the list's values in order of appearance.
    body: slots.named ? Object.fromEntries(slots.body.map((name, position) => [name, body[position] ?? ''])) : body,
    buttons: [],
  };
}

/** How many values the flat list needs, and what they are. */
export function listSlotCount(slots: TemplateSlots): number {
  return (slots.headerMedia ? 1 : 0) + slots.headerTexts.length + slots.body.length;
}

export function describeListSlots(slots: TemplateSlots): string {
  const parts = [
    slots.headerMedia ? `the header ${slots.headerMedia} link` : null,
    slots.headerTexts.length ? `${slots.headerTexts.length} header value(s)` : null,
    slots.body.length ? `${slots.body.length} body value(s)` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', then ') : 'no values';
}

/** Every problem of the values against the slots, by field (empty when they fit exactly). */
export function slotProblems(slots: TemplateSlots, values: TemplateValues): Record<string, string> {
  const problems: Record<string, string> = {};
  const header = values.header;
  if (slots.headerMedia) {
    if (!header || !('type' in header)) problems['template.header'] = `must be the header ${slots.headerMedia}: {type, link or id}`;
    else if (header.type !== slots.headerMedia) problems['template.header.type'] = `must be ${slots.headerMedia}`;
    else if (!header.link?.trim() && !header.id?.trim()) problems['template.header'] = `needs the link or id of the ${slots.headerMedia}`;
  } else if (slots.headerTexts.length) {
    if (!header || !('text' in header)) problems['template.header'] = `must be the text of the header's {{${slots.headerTexts[0]}}}`;
  } else if (header) {
    problems['template.header'] = 'the template has no header variable';
  }
  if (Array.isArray(values.body)) {
    if (slots.named && values.body.length)
      problems['template.body'] = `the template's variables are named: give {${slots.body.join(', ')}}`;
    else if (!slots.named && values.body.length !== slots.body.length) {
      problems['template.body'] = `must hold exactly ${slots.body.length} value(s)`;
    }
  } else if (!slots.named) {
    problems['template.body'] = `the template's variables are positional: give a list of ${slots.body.length} value(s)`;
  } else {
    for (const name of slots.body) if (!(name in values.body)) problems[`template.body.${name}`] = 'is required';
    for (const name of Object.keys(values.body)) {
      if (!slots.body.includes(name)) problems[`template.body.${name}`] = 'is not a variable of the template';
    }
  }
  for (const slot of slots.buttons) {
    const given = values.buttons.find((button) => button.index === slot.index);
    if (slot.required && !given) problems[`template.buttons.${slot.index}`] = `the ${slot.sub_type} button needs a value`;
    if (given && given.sub_type !== slot.sub_type) problems[`template.buttons.${slot.index}.sub_type`] = `must be ${slot.sub_type}`;
  }
  for (const button of values.buttons) {
    if (!slots.buttons.some((slot) => slot.index === button.index)) {
      problems[`template.buttons.${button.index}`] = 'the template has no button with a variable at this index';
    }
  }
  return problems;
}

type TemplateContent = Extract<OutboundContent, { type: 'template' }>;

function bodyValues(slots: TemplateSlots, body: TemplateValues['body']): Record<string, string> {
  if (!Array.isArray(body)) return body;
  return Object.fromEntries(slots.body.map((name, position) => [name, body[Number(name) - 1] ?? body[position] ?? '']));
}

/**
 * The provider components for a template filled with `values` (already checked to fit its slots), and
 * the text the contact sees (header text, body and footer, rendered).
 */
export function fillTemplate(template: Template, values: TemplateValues): { content: TemplateContent; text: string } {
  const slots = templateSlots(template);
  const named = bodyValues(slots, values.body);
  const headerText = values.header && 'text' in values.header ? values.header.text : null;
  const components: TemplateComponentParameters[] = [];
  if (values.header && 'type' in values.header) {
    const { type, link, id } = values.header;
    components.push({ type: 'header', parameters: [{ type, ...(id ? { id } : { link: link ?? '' }) }] });
  } else if (headerText !== null) {
    const name = slots.headerTexts[0]!;
    components.push({ type: 'header', parameters: [{ type: 'text', text: headerText, ...(slots.named ? { parameter_name: name } : {}) }] });
  }
  if (slots.body.length) {
    components.push({
      type: 'body',
      parameters: slots.body.map((name) => ({ type: 'text', text: named[name] ?? '', ...(slots.named ? { parameter_name: name } : {}) })),
    });
  }
  for (const button of [...values.buttons].sort((a, b) => a.index - b.index)) {
    const parameter =
      button.sub_type === 'url'
        ? { type: 'text' as const, text: button.value }
        : button.sub_type === 'copy_code'
          ? { type: 'coupon_code' as const, coupon_code: button.value }
          : { type: 'payload' as const, payload: button.value };
    components.push({ type: 'button', sub_type: button.sub_type, index: button.index, parameters: [parameter] });
  }

  const lines: string[] = [];
  for (const component of template.components) {
    if (component.type === 'HEADER' && component.format === 'TEXT' && component.text) {
      lines.push(render(component.text, headerText !== null ? { [slots.headerTexts[0] ?? '1']: headerText } : {}));
    }
    if (component.type === 'BODY') lines.push(render(component.text, named));
    if (component.type === 'FOOTER') lines.push(component.text);
  }
  return {
    content: { type: 'template', name: template.name, language: template.language, components },
    text: lines.join('\n'),
  };
}

function buttonValue(parameter: ButtonParameter | undefined): string {
  if (!parameter) return '';
  if (parameter.type === 'text') return parameter.text;
  return parameter.type === 'coupon_code' ? parameter.coupon_code : parameter.payload;
}

/** The components sent for a template read back into TemplateValues (what the provider itself checks). */
export function valuesOfComponents(components: TemplateContent['components']): TemplateValues | null {
  const header = components.flatMap((component) => (component.type === 'header' ? component.parameters : []));
  const body = components.flatMap((component) => (component.type === 'body' ? component.parameters : []));
  if (header.length > 1) return null;
  const texts = body.flatMap((parameter) => (parameter.type === 'text' && parameter.text.trim() !== '' ? [parameter] : []));
  if (texts.length !== body.length) return null;
  const named = texts.length > 0 && texts.every((parameter) => parameter.parameter_name);
  const [first] = header;
  return {
    header: !first ? null : first.type === 'text' ? { text: first.text } : { ...first },
    body: named
      ? Object.fromEntries(texts.map((parameter) => [parameter.parameter_name!, parameter.text]))
      : texts.map((parameter) => parameter.text),
    buttons: components.flatMap((component) =>
      component.type === 'button'
        ? [{ index: Number(component.index), sub_type: component.sub_type, value: buttonValue(component.parameters[0]) }]
        : [],
    ),
  };
}

/** Whether the components sent for a template fill exactly its slots (what the provider itself checks). */
export function fitsSlots(template: Template, components: TemplateContent['components']): boolean {
  const slots = templateSlots(template);
  const values = valuesOfComponents(components);
  return values !== null && Object.keys(slotProblems(slots, values)).length === 0;
}
