// The scheduling, knowledge and analytics routes over HTTP: each answers the JSON of the named operation its
// MCP tool runs, DateTime values in query strings and bodies reach the resolvers as dates (analytics, slots,
// booking, rescheduling), a bad value is 400 naming the field, another workspace's records are 404 and a key
// without the group's scope is 403.
import { describe, expect, it } from 'vitest';
import { openHarness } from '../support/harness.js';
import { expectError, getJson, operationResult, postJson, sendJson } from '../support/restFixtures.js';

const h = await openHarness();
const mine = await h.workspace();
const key = mine.api_key;
const theirs = await h.workspace();

const ALL_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekday) => ({
  weekday,
  start: '00:00',
  end: '24:00',
}));
const tomorrow = new Date();
tomorrow.setUTCHours(24, 0, 0, 0);
/** Tomorrow at this hour (UTC), as an ISO 8601 string. */
const at = (hour: number) => new Date(tomorrow.getTime() + hour * 3600_000).toISOString();

async function created(path: string, body: unknown, apiKey = key) {
  const answer = await postJson(h, path, apiKey, body);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(201);
  return answer.body;
}
const customerOf = async (workspaceId: string) =>
  (await h.db.prisma.customer.create({ data: { company_id: workspaceId, name: 'Client' } })).id;
const customerId = await customerOf(mine.workspace_id);

describe('scheduling routes', () => {
  it('settings, widget and appointment types answer as their operations do', async () => {
    const settings = await sendJson(h, 'PATCH', '/api/v1/scheduling/settings', key, { time_zone: 'Europe/Lisbon' });
    expect(settings.status).toBe(200);
    expect(settings.body.time_zone).toBe('Europe/Lisbon');
    expect((await getJson(h, '/api/v1/scheduling/settings', { key })).body).toEqual(await operationResult(h, key, 'SchedulingSettingsGet'));
    await sendJson(h, 'PATCH', '/api/v1/scheduling/settings', key, { time_zone: 'UTC' });

    const type = await created('/api/v1/appointment-types', {
      name: 'Visit',
      duration_minutes: 30,
      buffer_minutes: 10,
      availability: ALL_DAY,
    });
    expect(type).toMatchObject({ name: 'Visit', duration_minutes: 30, buffer_minutes: 10, active: true });
    expect(type).toEqual(await operationResult(h, key, 'AppointmentTypeGet', { id: type.id }));
    expect((await getJson(h, `/api/v1/appointment-types/${type.id}`, { key })).body).toEqual(type);
    const list = await getJson(h, '/api/v1/appointment-types?active=true', { key });
    expect(list.body).toEqual(await operationResult(h, key, 'AppointmentTypesList', { active: true }));
    const updated = await sendJson(h, 'PATCH', `/api/v1/appointment-types/${type.id}`, key, { active: false });
    expect(updated.body).toMatchObject({ id: type.id, active: false });

    const widget = await getJson(h, '/api/v1/scheduling/widget', { key });
    expect(widget.body).toEqual(await operationResult(h, key, 'WidgetEmbedGet'));
    const rotated = await postJson(h, '/api/v1/calendar/feed-token/rotate', key, undefined);
    expect(rotated.status).toBe(200);
    expect(rotated.body.url).toMatch(/\/calendar\/[A-Za-z0-9_-]+\.ics$/);

    const removed = await sendJson(h, 'DELETE', `/api/v1/appointment-types/${type.id}`, key);
    expect(removed.body).toEqual({ ...updated.body });
    expect((await getJson(h, `/api/v1/appointment-types/${type.id}`, { key })).status).toBe(404);
  });

  it('DateTime values route: slots and the appointment list read from/to, booking and rescheduling read start_at', async () => {
    const type = await created('/api/v1/appointment-types', { name: 'Call', duration_minutes: 60, availability: ALL_DAY });
    const window = `from=${encodeURIComponent(at(9))}&to=${encodeURIComponent(at(12))}`;
    const slots = await getJson(h, `/api/v1/calendar/slots?appointment_type_id=${type.id}&${window}`, { key });
    expect(slots.status, JSON.stringify(slots.body)).toBe(200);
    expect(slots.body).toEqual(
      await operationResult(h, key, 'CalendarSlotsList', { appointment_type_id: type.id, from: at(9), to: at(12) }),
    );
    expect(slots.body.slots.map((slot: { start_at: string }) => slot.start_at)).toEqual([at(9), at(10), at(11)]);

    const booked = await created('/api/v1/appointments', {
      customer_id: customerId,
      appointment_type_id: type.id,
      start_at: at(10),
      notes: 'First',
    });
    expect(booked).toMatchObject({ start_at: at(10), end_at: at(11), status: 'scheduled', notes: 'First' });
    expect(booked).toEqual(await operationResult(h, key, 'AppointmentGet', { id: booked.id }));
    const after = await getJson(h, `/api/v1/calendar/slots?appointment_type_id=${type.id}&${window}`, { key });
    expect(after.body.slots.map((slot: { start_at: string }) => slot.start_at)).toEqual([at(9), at(11)]);

    const conflict = await postJson(h, '/api/v1/appointments', key, {
      customer_id: customerId,
      appointment_type_id: type.id,
      start_at: at(10),
    });
    expectError(conflict, 409, { code: 'CONFLICT' });

    const moved = await sendJson(h, 'PATCH', `/api/v1/appointments/${booked.id}`, key, { start_at: at(14) });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ start_at: at(14), end_at: at(15) });
    const listed = await getJson(h, `/api/v1/appointments?from=${encodeURIComponent(at(13))}&to=${encodeURIComponent(at(16))}`, { key });
    expect(listed.body).toEqual(await operationResult(h, key, 'AppointmentsList', { from: at(13), to: at(16) }));
    expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual([booked.id]);
    const earlier = await getJson(h, `/api/v1/appointments?from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(13))}`, { key });
    expect(earlier.body.data).toEqual([]);

    const cancelled = await postJson(h, `/api/v1/appointments/${booked.id}/cancel`, key, undefined);
    expect(cancelled.body).toMatchObject({ id: booked.id, status: 'cancelled' });
  });

  it('a value that is not a date-time is 400 VALIDATION_ERROR naming the field', async () => {
    const type = await created('/api/v1/appointment-types', { name: 'Bad dates', duration_minutes: 30, availability: ALL_DAY });
    const slots = await getJson(h, `/api/v1/calendar/slots?appointment_type_id=${type.id}&from=monday&to=${encodeURIComponent(at(3))}`, {
      key,
    });
    expectError(slots, 400, { code: 'VALIDATION_ERROR', details: { from: 'must be an ISO 8601 date-time between the years 1 and 9999' } });
    const booking = await postJson(h, '/api/v1/appointments', key, {
      customer_id: customerId,
      appointment_type_id: type.id,
      start_at: 'noon',
    });
    expectError(booking, 400, {
      code: 'VALIDATION_ERROR',
      details: { start_at: 'must be an ISO 8601 date-time between the years 1 and 9999' },
    });
    const missing = await getJson(h, `/api/v1/analytics/summary?from=${encodeURIComponent(at(0))}`, { key });
    expectError(missing, 400, { code: 'VALIDATION_ERROR', details: { to: 'is required' } });
  });
});

describe('knowledge routes', () => {
  it('create, upload, list (without content), get, search, update and delete ({id, title}) answer as their operations do', async () => {
    const document = await created('/api/v1/knowledge/documents', { title: 'Returns policy', content: 'Refunds are paid within 30 days.' });
    expect(document).toEqual(await operationResult(h, key, 'KnowledgeDocumentGet', { id: document.id }));
    const upload = await created('/api/v1/knowledge/documents/upload', {
      content_base64: Buffer.from('<p>Deliveries <b>leave</b> daily</p>').toString('base64'),
      filename: 'shipping.html',
      content_type: 'text/html',
    });
    expect(upload).toMatchObject({ title: 'shipping', source_filename: 'shipping.html', source_content_type: 'text/html' });
    expect(upload.content).toContain('Deliveries leave daily');

    const list = await getJson(h, '/api/v1/knowledge/documents?limit=1', { key });
    expect(list.body).toEqual(await operationResult(h, key, 'KnowledgeDocumentsList', { limit: 1 }));
    expect(list.body).toMatchObject({ has_more: true, data: [{ id: upload.id }] });
    expect(list.body.data[0]).not.toHaveProperty('content');

    const found = await getJson(h, '/api/v1/knowledge/search?q=refund', { key });
    expect(found.body).toEqual(await operationResult(h, key, 'KnowledgeSearch', { q: 'refund' }));
    expect(found.body.results.map((result: { document: { id: string } }) => result.document.id)).toEqual([document.id]);

    const updated = await sendJson(h, 'PATCH', `/api/v1/knowledge/documents/${document.id}`, key, { content: 'Exchanges only.' });
    expect(updated.body).toMatchObject({ id: document.id, title: 'Returns policy', content: 'Exchanges only.' });
    expect((await getJson(h, '/api/v1/knowledge/search?q=refund', { key })).body.results).toEqual([]);
    const deleted = await sendJson(h, 'DELETE', `/api/v1/knowledge/documents/${document.id}`, key);
    expect(deleted.body).toEqual({ id: document.id, title: 'Returns policy' });
    expect((await getJson(h, `/api/v1/knowledge/documents/${document.id}`, { key })).status).toBe(404);
  });

  it('refuses an unsupported upload type with 400 naming content_type', async () => {
    const refused = await postJson(h, '/api/v1/knowledge/documents/upload', key, {
      content_base64: 'JVBERi0=',
      filename: 'a.pdf',
      content_type: 'application/pdf',
    });
    expectError(refused, 400, { code: 'VALIDATION_ERROR' });
    expect(Object.keys(refused.body.error.details)).toEqual(['content_type']);
  });
});

describe('analytics routes', () => {
  it('summary and export read from/to as dates and answer as their operations do', async () => {
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const summary = await getJson(h, `/api/v1/analytics/summary?${query}`, { key });
    expect(summary.status, JSON.stringify(summary.body)).toBe(200);
    expect(summary.body).toEqual(await operationResult(h, key, 'AnalyticsSummary', { from, to }));
    expect(summary.body).toMatchObject({ from, to });
    const exported = await getJson(h, `/api/v1/analytics/export?${query}`, { key });
    expect(exported.body).toEqual(await operationResult(h, key, 'AnalyticsExport', { from, to }));
    expect(exported.body.content_type).toBe('text/csv; charset=utf-8');
    expect(exported.body.content.split('\r\n')[1]).toMatch(/^all,/);
  });
});

describe('isolation and scopes', () => {
  it('another workspace’s appointment types, appointments and documents are 404', async () => {
    const otherKey = theirs.api_key;
    const type = await created('/api/v1/appointment-types', { name: 'Theirs', duration_minutes: 30, availability: ALL_DAY }, otherKey);
    const appointment = await created(
      '/api/v1/appointments',
      { customer_id: await customerOf(theirs.workspace_id), appointment_type_id: type.id, start_at: at(20) },
      otherKey,
    );
    const document = await created('/api/v1/knowledge/documents', { title: 'Theirs', content: 'Private.' }, otherKey);
    const requests: [string, string, unknown?][] = [
      ['GET', `/api/v1/appointment-types/${type.id}`],
      ['PATCH', `/api/v1/appointment-types/${type.id}`, { name: 'Mine' }],
      ['DELETE', `/api/v1/appointment-types/${type.id}`],
      ['GET', `/api/v1/appointments/${appointment.id}`],
      ['PATCH', `/api/v1/appointments/${appointment.id}`, { notes: 'Mine' }],
      ['POST', `/api/v1/appointments/${appointment.id}/cancel`],
      ['GET', `/api/v1/calendar/slots?appointment_type_id=${type.id}&from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(3))}`],
      ['POST', '/api/v1/appointments', { customer_id: customerId, appointment_type_id: type.id, start_at: at(21) }],
      ['GET', `/api/v1/knowledge/documents/${document.id}`],
      ['PATCH', `/api/v1/knowledge/documents/${document.id}`, { title: 'Mine' }],
      ['DELETE', `/api/v1/knowledge/documents/${document.id}`],
    ];
    for (const [method, path, body] of requests) {
      const answer = await sendJson(h, method, path, key, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe('NOT_FOUND');
    }
    expect((await getJson(h, `/api/v1/appointments/${appointment.id}`, { key: otherKey })).body.status).toBe('scheduled');
  });

  it('each group needs its own scope: 403 INSUFFICIENT_SCOPE otherwise', async () => {
    const onlyContacts = await h.key(mine.workspace_id, ['contacts:read']);
    const onlyKnowledge = await h.key(mine.workspace_id, ['knowledge']);
    const from = encodeURIComponent(at(0));
    for (const [path, apiKey] of [
      ['/api/v1/scheduling/settings', onlyKnowledge],
      ['/api/v1/appointment-types', onlyKnowledge],
      ['/api/v1/appointments', onlyContacts],
      ['/api/v1/knowledge/documents', onlyContacts],
      [`/api/v1/analytics/summary?from=${from}&to=${from}`, onlyKnowledge],
    ] as const) {
      const answer = await getJson(h, path, { key: apiKey });
      expect(answer.status, path).toBe(403);
      expect(answer.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await getJson(h, '/api/v1/knowledge/documents', { key: onlyKnowledge })).status).toBe(200);
  });
});
