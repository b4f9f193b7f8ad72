// The booking page's HTML: self-contained (inline style and script, nothing from another host), every value
// from the workspace escaped by the `html` template. The Content-Security-Policy allows exactly the inline
// style and script by their SHA-256 hashes (they are the same bytes on every page, so no nonce is needed),
// calls to this origin only, no form submission without the script, and framing by any site (the widget).
import { projectPath } from '../../../infra/paths.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { html, Markup } from '../../../infra/html.js';
import type { BookingPageGetQuery } from '../../core/operations.generated.js';

// Paths from this folder's parent, which is also dist/'s parent when the server runs bundled (scripts/build.mjs).
const STYLE = readFileSync(projectPath('facades/public/booking/page.css'), 'utf8');
const SCRIPT = readFileSync(projectPath('facades/public/booking/page.client.js'), 'utf8');

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  'frame-ancestors *',
].join('; ');

type Page = NonNullable<BookingPageGetQuery['bookingPage']>;

function document(title: string, body: Markup, script: boolean): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
${body}
${script ? new Markup(`<script>${SCRIPT}</script>`) : ''}
</body>
</html>
`.text;
}

function typeChoice(type: Page['appointment_types'][number]): Markup {
  return html`<li><label><input type="radio" name="type" value="${type.id}" data-name="${type.name}"> <span>${type.name}</span> <span class="length">${type.duration_minutes} min</span></label></li>`;
}

const field = (name: string, label: Markup, input: Markup) =>
  html`<label>${label}${input}<span class="field-error" data-field="${name}" role="alert"></span></label>`;

function bookingForm(): Markup {
  return html`<form id="booking-form" novalidate>
<p id="chosen"></p>
${field('name', html`Name`, html`<input id="name" name="name" required maxlength="200" autocomplete="name">`)}
${field(
  'phone',
  html`Phone <span class="hint">in international format, for example +14155550123</span>`,
  html`<input name="phone" type="tel" required maxlength="16" autocomplete="tel" inputmode="tel">`,
)}
${field('email', html`Email <span class="hint">(optional)</span>`, html`<input name="email" type="email" maxlength="320" autocomplete="email">`)}
${field('notes', html`Notes <span class="hint">(optional)</span>`, html`<textarea name="notes" maxlength="5000"></textarea>`)}
<p id="form-problem" class="problem" role="alert"></p>
<button type="submit" class="primary">Book</button>
</form>`;
}

/** The page of a workspace: its bookable types; the script fills in weeks of slots and books. */
export function renderBookingPage(publicId: string, page: Page): string {
  const title = `Book an appointment with ${page.name}`;
  const choices =
    page.appointment_types.length > 0
      ? html`<ul class="types">${page.appointment_types.map(typeChoice)}</ul>`
      : html`<p class="muted">Nothing can be booked online right now.</p>`;
  const body = html`<main id="booking" data-api="../api/v1/public/booking/${encodeURIComponent(publicId)}" data-time-zone="${page.time_zone}">
<h1>${title}</h1>
<p class="muted">Times are shown in ${page.time_zone}.</p>
<noscript><p class="problem">Choosing a time needs JavaScript.</p></noscript>
<section id="choose"><h2>Choose a service</h2>${choices}</section>
<section id="times" hidden>
<h2>Choose a time</h2>
<div class="week"><button type="button" id="previous-week">&larr; Earlier</button><span id="week-label"></span><button type="button" id="next-week">Later &rarr;</button></div>
<p id="week-problem" class="problem" role="alert"></p>
<div id="slots" aria-live="polite"></div>
</section>
<section id="details" hidden><h2>Your details</h2>${bookingForm()}</section>
<section id="confirmation" hidden>
<h2 class="done">Booked</h2>
<p id="confirmation-text"></p>
<p id="confirmation-reference" class="muted"></p>
</section>
</main>`;
  return document(title, body, true);
}

/** The page for an unknown public id (404) or a failure (5xx): no script, nothing about the request. */
export function renderProblemPage(status: number): string {
  const [title, text] =
    status === 404
      ? ['Booking page not found', 'There is no booking page at this address. Check the link you were given.']
      : ['Booking is unavailable', 'The booking page cannot be shown right now; please try again later.'];
  return document(title, html`<main><h1>${title}</h1><p>${text}</p></main>`, false);
}
