// Meta's rules for a template, checked before it is submitted so that a template bound to be refused is a 400
// naming the field instead of a rejection days later. The input is Meta's create request form (components with
// their `example` samples); every rule's failure is reported under its field (`components.1.text`, ...), all at
// once. Rules: https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates/components
// and docs/api-decisions.md ("Templates written here").
import { z } from 'zod';
import {
  HEADER_FORMATS,
  PARAMETER_FORMATS,
  TEMPLATE_CATEGORIES,
  type DefinitionButton,
  type DefinitionComponent,
  type NamedExample,
  type ParameterFormat,
} from '../../adapters/providers/types.js';
import { invalid } from '../shared/errors.js';

export const MAX_NAME = 512;
export const MAX_BODY = 1024;
export const MAX_HEADER_TEXT = 60;
export const MAX_FOOTER = 60;
export const MAX_BUTTONS = 10;
export const MAX_BUTTON_TEXT = 25;
export const MAX_URL_BUTTONS = 2;
/** Quick replies placed before the other buttons: WhatsApp shows at most three before the rest fold away. */
export const MAX_LEADING_QUICK_REPLIES = 3;
const MAX_COPY_CODE = 15;

export const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'] as const;

const text = z.string().nullish();
const named = z.object({ param_name: z.string(), example: z.string() });
const buttonInput = z.object({
  type: z.enum(BUTTON_TYPES, { message: `must be one of ${BUTTON_TYPES.join(', ')}` }),
  text,
  url: text,
  phone_number: text,
  example: z.array(z.string()).nullish(),
});
export const componentInput = z.object({
  type: z.enum(COMPONENT_TYPES, { message: `must be one of ${COMPONENT_TYPES.join(', ')}` }),
  format: z.enum(HEADER_FORMATS, { message: `must be one of ${HEADER_FORMATS.join(', ')}` }).nullish(),
  text,
  example: z
    .object({
      header_text: z.array(z.string()).nullish(),
      header_handle: z.array(z.string()).nullish(),
      header_text_named_params: z.array(named).nullish(),
      body_text: z.array(z.array(z.string())).nullish(),
      body_text_named_params: z.array(named).nullish(),
    })
    .nullish(),
  buttons: z.array(buttonInput).nullish(),
});
export type ComponentInput = z.infer<typeof componentInput>;
type ButtonInput = z.infer<typeof buttonInput>;

export const templateFields = {
  name: z
    .string({ message: 'is required' })
    .trim()
    .min(1, { message: 'is required' })
    .max(MAX_NAME, { message: `must be at most ${MAX_NAME} characters` })
    .regex(/^[a-z0-9_]+$/, { message: 'must be lowercase letters, digits and underscores' }),
  language: z
    .string({ message: 'is required' })
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { message: 'must be a language code such as en or en_US' }),
  category: z.enum(TEMPLATE_CATEGORIES, { message: `must be one of ${TEMPLATE_CATEGORIES.join(', ')}` }),
  parameter_format: z
    .enum(PARAMETER_FORMATS, { message: `must be one of ${PARAMETER_FORMATS.join(', ')}` })
    .nullish()
    .transform((value) => value ?? 'POSITIONAL'),
  components: z.array(componentInput, { message: 'is required' }).min(1, { message: 'must hold a BODY' }).max(4),
};

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NAMED_VARIABLE = /^[a-z][a-z0-9_]*$/;

type Problems = Record<string, string>;

/** The variables of a text, in order of appearance (repeats kept). */
function variablesOf(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map((match) => match[1]!);
}

/** Whether a text's variables follow the format: {{1}}…{{n}} without gaps, or lowercase names. */
function variableProblem(variables: string[], format: ParameterFormat): string | null {
  if (format === 'NAMED') {
    const bad = variables.find((variable) => !NAMED_VARIABLE.test(variable));
    return bad === undefined
      ? null
      : `{{${bad}}}: named parameters must be lowercase letters, digits and underscores, starting with a letter`;
  }
  const bad = variables.find((variable) => !/^[1-9]\d*$/.test(variable));
  if (bad !== undefined) return `{{${bad}}}: positional parameters are numbers {{1}}, {{2}}, …`;
  const numbers = [...new Set(variables.map(Number))].sort((a, b) => a - b);
  const gap = numbers.findIndex((number, index) => number !== index + 1);
  return gap === -1 ? null : `parameters must be numbered from {{1}} without gaps; {{${gap + 1}}} is missing`;
}

/** The samples given for a text's variables, or the problem with them. */
function exampleProblem(
  variables: string[],
  format: ParameterFormat,
  positional: readonly string[] | null | undefined,
  byName: readonly NamedExample[] | null | undefined,
): string | null {
  const distinct = [...new Set(variables)];
  if (!distinct.length) return null;
  if (format === 'NAMED') {
    const missing = distinct.filter((name) => !byName?.some((sample) => sample.param_name === name && sample.example.trim()));
    return missing.length ? `needs an example for every parameter: ${missing.map((name) => `{{${name}}}`).join(', ')}` : null;
  }
  const filled = (positional ?? []).filter((sample) => sample.trim()).length;
  return filled === distinct.length && positional?.length === distinct.length
    ? null
    : `needs exactly ${distinct.length} example value(s), one for every parameter`;
}

function checkHeader(component: ComponentInput, format: ParameterFormat, at: string, problems: Problems): DefinitionComponent | null {
  if (!component.format) {
    problems[`${at}.format`] = `is required: ${HEADER_FORMATS.join(', ')}`;
    return null;
  }
  if (component.format === 'LOCATION') return { type: 'HEADER', format: 'LOCATION' };
  if (component.format !== 'TEXT') {
    const handle = component.example?.header_handle?.[0]?.trim();
    if (!handle)
      problems[`${at}.example.header_handle`] = `needs a sample ${component.format.toLowerCase()}: its upload handle or https URL`;
    return { type: 'HEADER', format: component.format, example: { header_handle: [handle ?? ''] } };
  }
  const value = component.text?.trim() ?? '';
  if (!value) problems[`${at}.text`] = 'is required for a TEXT header';
  else if (value.length > MAX_HEADER_TEXT) problems[`${at}.text`] = `must be at most ${MAX_HEADER_TEXT} characters`;
  const variables = variablesOf(value);
  if (new Set(variables).size > 1) problems[`${at}.text`] = 'may hold at most one parameter';
  const variable = variableProblem(variables, format);
  if (variable) problems[`${at}.text`] ??= variable;
  const example = exampleProblem(variables, format, component.example?.header_text, component.example?.header_text_named_params);
  if (example) problems[`${at}.example`] = example;
  const samples = variables.length
    ? format === 'NAMED'
      ? { header_text_named_params: component.example?.header_text_named_params ?? [] }
      : { header_text: component.example?.header_text ?? [] }
    : null;
  return { type: 'HEADER', format: 'TEXT', text: value, ...(samples ? { example: samples } : {}) };
}

function checkBody(component: ComponentInput, format: ParameterFormat, at: string, problems: Problems): DefinitionComponent {
  const value = component.text?.trim() ?? '';
  if (!value) problems[`${at}.text`] = 'is required';
  else if (value.length > MAX_BODY) problems[`${at}.text`] = `must be at most ${MAX_BODY} characters`;
  else if (/^\{\{[^{}]*\}\}/.test(value) || /\{\{[^{}]*\}\}$/.test(value)) problems[`${at}.text`] = 'may not start or end with a parameter';
  const variables = variablesOf(value);
  const variable = variableProblem(variables, format);
  if (variable) problems[`${at}.text`] ??= variable;
  const example = exampleProblem(variables, format, component.example?.body_text?.[0], component.example?.body_text_named_params);
  if (example) problems[`${at}.example`] = example;
  const samples = variables.length
    ? format === 'NAMED'
      ? { body_text_named_params: component.example?.body_text_named_params ?? [] }
      : { body_text: [component.example?.body_text?.[0] ?? []] }
    : null;
  return { type: 'BODY', text: value, ...(samples ? { example: samples } : {}) };
}

function checkFooter(component: ComponentInput, at: string, problems: Problems): DefinitionComponent {
  const value = component.text?.trim() ?? '';
  if (!value) problems[`${at}.text`] = 'is required';
  else if (value.length > MAX_FOOTER) problems[`${at}.text`] = `must be at most ${MAX_FOOTER} characters`;
  else if (variablesOf(value).length) problems[`${at}.text`] = 'may not hold parameters';
  return { type: 'FOOTER', text: value };
}

function buttonText(button: ButtonInput, at: string, problems: Problems): string {
  const value = button.text?.trim() ?? '';
  if (!value) problems[`${at}.text`] = 'is required';
  else if (value.length > MAX_BUTTON_TEXT) problems[`${at}.text`] = `must be at most ${MAX_BUTTON_TEXT} characters`;
  return value;
}

function checkButton(button: ButtonInput, at: string, problems: Problems): DefinitionButton {
  switch (button.type) {
    case 'QUICK_REPLY':
      return { type: 'QUICK_REPLY', text: buttonText(button, at, problems) };
    case 'PHONE_NUMBER': {
      const phone = button.phone_number?.trim() ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(phone)) problems[`${at}.phone_number`] = 'must be an E.164 phone number such as +15550100000';
      return { type: 'PHONE_NUMBER', text: buttonText(button, at, problems), phone_number: phone };
    }
    case 'COPY_CODE': {
      const code = button.example?.[0]?.trim() ?? '';
      if (!code || code.length > MAX_COPY_CODE) problems[`${at}.example`] = `needs the sample code, at most ${MAX_COPY_CODE} characters`;
      return { type: 'COPY_CODE', example: code };
    }
    case 'URL': {
      const url = button.url?.trim() ?? '';
      const variables = variablesOf(url);
      if (!/^https?:\/\/[^\s{}]+/.test(url) || url.length > 2000)
        problems[`${at}.url`] = 'must be an http(s) URL of at most 2000 characters';
      else if (variables.length > 1 || (variables.length === 1 && !/\{\{\s*1\s*\}\}$/.test(url)))
        problems[`${at}.url`] = 'may hold one parameter, {{1}}, at its end (the dynamic suffix)';
      const sample = button.example?.[0]?.trim();
      if (variables.length && !sample) problems[`${at}.example`] = 'needs the full sample URL for its {{1}} suffix';
      return { type: 'URL', text: buttonText(button, at, problems), url, ...(variables.length ? { example: [sample ?? ''] } : {}) };
    }
  }
}

function checkButtons(component: ComponentInput, at: string, problems: Problems): DefinitionComponent {
  const buttons = component.buttons ?? [];
  if (!buttons.length) problems[`${at}.buttons`] = 'must hold at least one button';
  if (buttons.length > MAX_BUTTONS) problems[`${at}.buttons`] = `must hold at most ${MAX_BUTTONS} buttons`;
  const count = (type: ButtonInput['type']) => buttons.filter((button) => button.type === type).length;
  if (count('URL') > MAX_URL_BUTTONS) problems[`${at}.buttons`] ??= `may hold at most ${MAX_URL_BUTTONS} URL buttons`;
  if (count('PHONE_NUMBER') > 1) problems[`${at}.buttons`] ??= 'may hold at most 1 PHONE_NUMBER button';
  if (count('COPY_CODE') > 1) problems[`${at}.buttons`] ??= 'may hold at most 1 COPY_CODE button';
  const kinds = buttons.map((button) => button.type === 'QUICK_REPLY');
  const groups = kinds.filter((quick, index) => index === 0 || quick !== kinds[index - 1]).length;
  if (groups > 2) problems[`${at}.buttons`] ??= 'quick replies must be grouped together, before or after the other buttons';
  else if (groups === 2 && kinds[0] && count('QUICK_REPLY') > MAX_LEADING_QUICK_REPLIES)
    problems[`${at}.buttons`] ??= `at most ${MAX_LEADING_QUICK_REPLIES} quick replies may come before other buttons`;
  return { type: 'BUTTONS', buttons: buttons.map((button, index) => checkButton(button, `${at}.buttons.${index}`, problems)) };
}

/** The components in Meta's create request form, or a VALIDATION_ERROR naming every field that breaks a rule. */
export function checkedComponents(components: readonly ComponentInput[], format: ParameterFormat): DefinitionComponent[] {
  const problems: Problems = {};
  const checked: DefinitionComponent[] = [];
  const seen = new Set<string>();
  components.forEach((component, index) => {
    const at = `components.${index}`;
    if (seen.has(component.type)) problems[`${at}.type`] = `a template holds at most one ${component.type}`;
    seen.add(component.type);
    const result =
      component.type === 'HEADER'
        ? checkHeader(component, format, at, problems)
        : component.type === 'BODY'
          ? checkBody(component, format, at, problems)
          : component.type === 'FOOTER'
            ? checkFooter(component, at, problems)
            : checkButtons(component, at, problems);
    if (result) checked.push(result);
  });
  if (!seen.has('BODY')) problems['components'] = 'must hold a BODY';
  if (Object.keys(problems).length) throw invalid(problems);
  const order = (component: DefinitionComponent) => COMPONENT_TYPES.indexOf(component.type);
  return checked.sort((a, b) => order(a) - order(b));
}
