// How a template's variable slots are filled, shared by the send path (which validates and renders) and
// the sandbox (which checks what it is sent, as the real provider does). The spec's template send carries
// one flat `parameters` list; it fills the slots in reading order: a media header's link, the header
// text's {{n}}, then the body's {{n}}.
import type { HeaderFormat, MediaKind, OutboundContent, Template, TemplateParameter } from './types.js';

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** The number of values a text needs: its highest {{n}}. */
export function placeholderCount(text: string | undefined): number {
  let highest = 0;
  for (const match of (text ?? '').matchAll(PLACEHOLDER)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

function render(text: string, values: readonly string[]): string {
  return text.replace(PLACEHOLDER, (whole, n: string) => values[Number(n) - 1] ?? whole);
}

const MEDIA_FORMATS: Partial<Record<HeaderFormat, MediaKind>> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' };

export type TemplateSlots = { headerMedia: MediaKind | null; headerTexts: number; body: number };

export function templateSlots(template: Template): TemplateSlots {
  const header = template.components.find((component) => component.type === 'HEADER');
  const body = template.components.find((component) => component.type === 'BODY');
  return {
    headerMedia: header ? (MEDIA_FORMATS[header.format] ?? null) : null,
    headerTexts: header?.format === 'TEXT' ? placeholderCount(header.text) : 0,
    body: placeholderCount(body?.text),
  };
}

export function slotCount(slots: TemplateSlots): number {
  return (slots.headerMedia ? 1 : 0) + slots.headerTexts + slots.body;
}

export function describeSlots(slots: TemplateSlots): string {
  const parts = [
    slots.headerMedia ? `the header ${slots.headerMedia} link` : null,
    slots.headerTexts ? `${slots.headerTexts} header value(s)` : null,
    slots.body ? `${slots.body} body value(s)` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', then ') : 'no values';
}

type TemplateContent = Extract<OutboundContent, { type: 'template' }>;

/**
 * The provider components for a template filled with `parameters` (already checked to match its slots),
 * and the text the contact sees (header text, body and footer, rendered).
 */
export function fillTemplate(template: Template, parameters: readonly string[]): { content: TemplateContent; text: string } {
  const slots = templateSlots(template);
  let next = 0;
  const take = (count: number) => parameters.slice(next, (next += count));
  const headerParameters: TemplateParameter[] = [];
  if (slots.headerMedia) headerParameters.push({ type: slots.headerMedia, link: take(1)[0] ?? '' });
  const headerValues = take(slots.headerTexts);
  headerParameters.push(...headerValues.map((text) => ({ type: 'text' as const, text })));
  const bodyValues = take(slots.body);

  const components: TemplateContent['components'] = [];
  if (headerParameters.length) components.push({ type: 'header', parameters: headerParameters });
  if (bodyValues.length) components.push({ type: 'body', parameters: bodyValues.map((text) => ({ type: 'text', text })) });

  const lines: string[] = [];
  for (const component of template.components) {
    if (component.type === 'HEADER' && component.format === 'TEXT' && component.text) lines.push(render(component.text, headerValues));
    if (component.type === 'BODY') lines.push(render(component.text, bodyValues));
    if (component.type === 'FOOTER') lines.push(component.text);
  }
  return {
    content: { type: 'template', name: template.name, language: template.language, components },
    text: lines.join('\n'),
  };
}

/** Whether the components sent for a template fill exactly its slots (what the provider itself checks). */
export function fitsSlots(template: Template, components: TemplateContent['components']): boolean {
  const slots = templateSlots(template);
  const header = components.find((component) => component.type === 'header')?.parameters ?? [];
  const body = components.find((component) => component.type === 'body')?.parameters ?? [];
  const headerMedia = header.filter((parameter) => parameter.type !== 'text');
  const headerTexts = header.filter((parameter) => parameter.type === 'text');
  return (
    headerMedia.length === (slots.headerMedia ? 1 : 0) &&
    (headerMedia[0]?.type ?? null) === slots.headerMedia &&
    headerTexts.length === slots.headerTexts &&
    body.length === slots.body &&
    [...header, ...body].every((parameter) => (parameter.type === 'text' ? parameter.text : parameter.link).trim() !== '')
  );
}
