// The booking page's script (inlined by facades/public/booking/page.ts, allowed by its hash in the CSP): picks a week of
// free slots for the chosen type from the key-less slots route and books one with the form. Weeks run Monday
// to Sunday in the workspace time zone; every text from the server is set with textContent.
'use strict';
(() => {
  const root = document.getElementById('booking');
  if (!root) return;
  const api = root.dataset.api;
  const zone = root.dataset.timeZone;
  const byId = (id) => document.getElementById(id);
  const DAY = 86_400_000;
  const state = { type: null, week: 0, slot: null, loading: 0 };

  // Wall-clock arithmetic in the workspace zone with Intl alone: a local date is kept as the UTC instant of
  // its midnight (so Date.UTC arithmetic works on it), and converted to the real instant when asked.
  const clock = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const wallClock = (instant) => {
    const part = {};
    for (const { type, value } of clock.formatToParts(new Date(instant))) part[type] = Number(value);
    return Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  };
  const offsetAt = (instant) => wallClock(instant) - Math.floor(instant / 1000) * 1000;
  /** The instant at which a local date begins in the zone. */
  const startOfLocalDate = (date) => date - offsetAt(date - offsetAt(date));
  const localToday = () => {
    const now = wallClock(Date.now());
    return now - (now % DAY);
  };
  /** The local date of the Monday that starts week `n` (0 = this week). */
  const mondayOf = (n) => {
    const today = localToday();
    return today - ((new Date(today).getUTCDay() + 6) % 7) * DAY + n * 7 * DAY;
  };

  const dayName = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
  const shortDate = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
  const localDate = (iso) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
  const localTime = (iso) => iso.slice(11, 16);

  const element = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };

  async function call(path, init) {
    const response = await fetch(`${api}${path}`, {
      ...init,
      credentials: 'omit',
      headers: { accept: 'application/json', ...(init && init.headers) },
    });
    const body = await response.json().catch(() => null);
    return { status: response.status, body };
  }

  function problemText(answer) {
    const error = answer.body && answer.body.error;
    if (answer.status === 429) {
      const seconds = error && error.details ? error.details.retry_after_seconds : null;
      return `Too many requests from this connection; please try again${seconds ? ` in ${seconds} seconds` : ' shortly'}.`;
    }
    if (error && typeof error.message === 'string' && answer.status < 500) return error.message;
    return 'Something went wrong on our side; please try again.';
  }

  async function showWeek() {
    const section = byId('times');
    const list = byId('slots');
    const label = byId('week-label');
    section.hidden = false;
    const monday = mondayOf(state.week);
    label.textContent = `${shortDate.format(new Date(monday))} – ${shortDate.format(new Date(monday + 6 * DAY))}`;
    byId('previous-week').disabled = state.week === 0;
    list.replaceChildren(element('p', 'Looking for free times…', 'muted'));
    const loading = ++state.loading;
    const query = new URLSearchParams({
      appointment_type_id: state.type.id,
      from: new Date(startOfLocalDate(monday)).toISOString(),
      to: new Date(startOfLocalDate(monday + 7 * DAY)).toISOString(),
    });
    const answer = await call(`/slots?${query}`);
    if (loading !== state.loading) return;
    if (answer.status !== 200) {
      list.replaceChildren(element('p', problemText(answer), 'problem'));
      return;
    }
    const slots = answer.body.slots;
    if (slots.length === 0) {
      list.replaceChildren(element('p', 'No free times this week.', 'muted'));
      return;
    }
    const days = new Map();
    for (const slot of slots) {
      const day = slot.local_start.slice(0, 10);
      if (!days.has(day)) days.set(day, []);
      days.get(day).push(slot);
    }
    const nodes = [];
    for (const [day, daySlots] of days) {
      nodes.push(element('p', dayName.format(new Date(localDate(day))), 'day'));
      const times = element('div', undefined, 'times');
      for (const slot of daySlots) {
        const button = element('button', localTime(slot.local_start));
        button.type = 'button';
        button.dataset.start = slot.start_at;
        button.setAttribute('aria-pressed', 'false');
        button.addEventListener('click', () => choose(slot, button));
        times.append(button);
      }
      nodes.push(times);
    }
    list.replaceChildren(...nodes);
  }

  function choose(slot, button) {
    state.slot = slot;
    byId('week-problem').textContent = '';
    for (const other of document.querySelectorAll('#slots button')) other.setAttribute('aria-pressed', String(other === button));
    byId('chosen').textContent =
      `${state.type.name}, ${dayName.format(new Date(localDate(slot.local_start)))} at ${localTime(slot.local_start)}–${localTime(slot.local_end)} (${zone})`;
    byId('details').hidden = false;
    byId('name').focus();
  }

  function clearErrors() {
    for (const node of document.querySelectorAll('.field-error, #form-problem')) node.textContent = '';
  }

  async function book(event) {
    event.preventDefault();
    if (!state.slot) return;
    clearErrors();
    const form = event.currentTarget;
    const submit = form.querySelector('button[type=submit]');
    const value = (name) => form.elements.namedItem(name).value.trim();
    const body = { appointment_type_id: state.type.id, start_at: state.slot.start_at, name: value('name'), phone: value('phone') };
    if (value('email')) body.email = value('email');
    if (value('notes')) body.notes = value('notes');
    submit.disabled = true;
    const answer = await call('/appointments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    submit.disabled = false;
    if (answer.status === 201) {
      const booked = answer.body;
      byId('choose').hidden = true;
      byId('times').hidden = true;
      byId('details').hidden = true;
      byId('confirmation').hidden = false;
      byId('confirmation-text').textContent =
        `${booked.appointment_type_name} on ${dayName.format(new Date(localDate(booked.local_start)))} ` +
        `at ${localTime(booked.local_start)}–${localTime(booked.local_end)} (${booked.time_zone}).`;
      byId('confirmation-reference').textContent = `Reference: ${booked.appointment_id}`;
      return;
    }
    const error = answer.body && answer.body.error;
    const details = (error && error.details) || {};
    let placed = false;
    for (const [field, reason] of Object.entries(details)) {
      const slot = document.querySelector(`.field-error[data-field="${CSS.escape(field)}"]`);
      if (slot && typeof reason === 'string') {
        slot.textContent = reason;
        placed = true;
      }
    }
    if (answer.status === 409) {
      state.slot = null;
      byId('details').hidden = true;
      byId('week-problem').textContent = 'That time has just been taken; please choose another.';
      await showWeek();
      return;
    }
    if (!placed) byId('form-problem').textContent = problemText(answer);
  }

  for (const input of document.querySelectorAll('input[name=type]')) {
    input.addEventListener('change', () => {
      state.type = { id: input.value, name: input.dataset.name };
      state.week = 0;
      state.slot = null;
      byId('details').hidden = true;
      byId('week-problem').textContent = '';
      showWeek();
    });
  }
  byId('previous-week').addEventListener('click', () => {
    if (state.week > 0) state.week -= 1;
    showWeek();
  });
  byId('next-week').addEventListener('click', () => {
    state.week += 1;
    showWeek();
  });
  byId('booking-form').addEventListener('submit', book);
})();
