// The named operations that the REST routes and MCP tools of the scheduling, knowledge and analytics groups
// will run, executed as written in facades/operations/*.graphql: an AI client's day — set up a type, find
// a free slot and book it, reschedule and cancel; upload and search knowledge; read the week's metrics.
import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { operation } from '../../facades/core/operations.js';
import type {
  AnalyticsExportQuery,
  AnalyticsSummaryQuery,
  AppointmentBookMutation,
  AppointmentCancelMutation,
  AppointmentTypeCreateMutation,
  AppointmentUpdateMutation,
  AppointmentsListQuery,
  CalendarFeedTokenRotateMutation,
  CalendarSlotsListQuery,
  KnowledgeDocumentUploadMutation,
  KnowledgeDocumentsListQuery,
  KnowledgeSearchQuery,
  SchedulingSettingsUpdateMutation,
  WidgetEmbedGetQuery,
} from '../../facades/core/operations.generated.js';
import { openHarness } from '../support/harness.js';
import { graphqlCalls } from '../support/results.js';

const harness = await openHarness();
const { data } = graphqlCalls(harness);
const workspace = await harness.workspace('Operations');
const key = workspace.api_key;
const customer = await harness.db.prisma.customer.create({ data: { company_id: workspace.workspace_id, name: 'Rita Lopes' } });

function run<Data>(name: string, variables: Record<string, unknown> = {}) {
  return data<Data>(key, print(operation(name)), variables);
}

describe('scheduling operations', () => {
  it('sets the time zone, creates a type, books the first free slot, reschedules and cancels it', async () => {
    const settings = await run<SchedulingSettingsUpdateMutation>('SchedulingSettingsUpdate', { time_zone: 'America/New_York' });
    expect(settings.schedulingSettingsUpdate.time_zone).toBe('America/New_York');

    const { appointmentTypeCreate: type } = await run<AppointmentTypeCreateMutation>('AppointmentTypeCreate', {
      name: 'Fitting',
      duration_minutes: 45,
      buffer_minutes: 15,
      availability: [{ weekday: 'wednesday', start: '14:00', end: '17:00' }],
    });
    const { calendarSlots } = await run<CalendarSlotsListQuery>('CalendarSlotsList', {
      appointment_type_id: type.id,
      from: '2030-06-05T00:00:00-04:00',
      to: '2030-06-06T00:00:00-04:00',
    });
    expect(calendarSlots.slots.map((slot) => slot.local_start)).toEqual([
      '2030-06-05T14:00:00-04:00',
      '2030-06-05T15:00:00-04:00',
      '2030-06-05T16:00:00-04:00',
    ]);

    const { appointmentBook: booked } = await run<AppointmentBookMutation>('AppointmentBook', {
      customer_id: customer.id,
      appointment_type_id: type.id,
      start_at: calendarSlots.slots[0]!.start_at,
      notes: 'Bring the fabric',
    });
    expect(booked).toMatchObject({ start_at: '2030-06-05T18:00:00.000Z', end_at: '2030-06-05T18:45:00.000Z', status: 'scheduled' });

    const { appointmentUpdate: moved } = await run<AppointmentUpdateMutation>('AppointmentUpdate', {
      id: booked.id,
      start_at: calendarSlots.slots[1]!.start_at,
    });
    expect(moved.start_at).toBe('2030-06-05T19:00:00.000Z');
    const list = await run<AppointmentsListQuery>('AppointmentsList', { from: '2030-06-05T00:00:00Z', to: '2030-06-06T00:00:00Z' });
    expect(list.appointments.data.map((row) => row.id)).toEqual([booked.id]);
    const { appointmentCancel } = await run<AppointmentCancelMutation>('AppointmentCancel', { id: booked.id });
    expect(appointmentCancel.status).toBe('cancelled');

    const { widgetEmbed } = await run<WidgetEmbedGetQuery>('WidgetEmbedGet');
    expect(widgetEmbed.appointment_types.map((row) => row.name)).toEqual(['Fitting']);
    const { calendarFeedTokenRotate } = await run<CalendarFeedTokenRotateMutation>('CalendarFeedTokenRotate');
    expect((await harness.fetch(new URL(calendarFeedTokenRotate.url).pathname)).status).toBe(200);
  });
});

describe('knowledge operations', () => {
  it('uploads a Markdown document, lists it and finds it by search', async () => {
    const { knowledgeDocumentUpload: document } = await run<KnowledgeDocumentUploadMutation>('KnowledgeDocumentUpload', {
      content_base64: Buffer.from('# Alterations\n\nHems are shortened within three working days.').toString('base64'),
      filename: 'alterations.md',
      content_type: 'text/markdown',
    });
    expect(document.title).toBe('alterations');
    const list = await run<KnowledgeDocumentsListQuery>('KnowledgeDocumentsList', { limit: 10 });
    expect(list.knowledgeDocuments.data.map((row) => row.id)).toEqual([document.id]);
    const { knowledgeSearch } = await run<KnowledgeSearchQuery>('KnowledgeSearch', { q: 'shorten hem' });
    expect(knowledgeSearch.results.map((result) => [result.document.id, result.snippet])).toEqual([
      [document.id, expect.stringContaining('**Hems** are **shortened**')],
    ]);
  });
});

describe('analytics operations', () => {
  it("reads the week's metrics and their CSV export", async () => {
    const week = { from: '2026-10-05T00:00:00Z', to: '2026-10-12T00:00:00Z' };
    const { analyticsSummary } = await run<AnalyticsSummaryQuery>('AnalyticsSummary', week);
    expect(analyticsSummary.totals.conversations_active).toBe(0);
    const { analyticsExport } = await run<AnalyticsExportQuery>('AnalyticsExport', week);
    expect(analyticsExport.content.split('\r\n')[1]).toBe('all,,,,0,0,0,0,0,0,0,0,,,0,0,,,,');
  });
});
