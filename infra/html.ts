// HTML the service writes itself (the widget snippet, the booking page): every value that comes from a
// workspace or a visitor is escaped on the way in. `html` is a tagged template that escapes each
// interpolated value unless it is Markup already, so a page cannot forget to.
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** Text that is HTML already (built by `html`), inserted as it is. */
export class Markup {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

type Value = string | number | Markup | readonly Markup[];

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  const piece = (value: Value): string => {
    if (value instanceof Markup) return value.text;
    if (Array.isArray(value)) return value.map((item: Markup) => item.text).join('');
    return escapeHtml(String(value));
  };
  return new Markup(strings.reduce((result, text, index) => result + piece(values[index - 1]!) + text));
}
