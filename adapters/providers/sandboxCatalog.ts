// The sandbox's template catalog: a realistic business account covering every template status, category
// and component type (HEADER in each format, BODY with {{n}} or named {{first_name}} variables, FOOTER,
// BUTTONS with phone, URL (fixed or with a variable), copy-code and quick-reply buttons), a REJECTED
// template with its reason and templates with a quality score.
import type { Template } from './types.js';

const SCORED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z, unix seconds as the provider reports it

export const SANDBOX_TEMPLATES: readonly Template[] = [
  {
    id: '1046381927450112',
    name: 'order_confirmation',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}} confirmed' },
      { type: 'BODY', text: 'Hi {{1}}, thank you for your order! It will ship on {{2}}.' },
      { type: 'FOOTER', text: 'Reply STOP to stop order updates' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'Track order', url: 'https://shop.example.com/orders' },
          { type: 'PHONE_NUMBER', text: 'Call support', phone_number: '+15550100000' },
        ],
      },
    ],
    quality_score: { score: 'GREEN', date: SCORED_AT },
  },
  {
    id: '1046381927450113',
    name: 'order_confirmation',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'es',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}} confirmado' },
      { type: 'BODY', text: 'Hola {{1}}, ¡gracias por tu pedido! Se enviará el {{2}}.' },
      { type: 'FOOTER', text: 'Responde STOP para no recibir avisos' },
    ],
    quality_score: { score: 'GREEN', date: SCORED_AT },
  },
  {
    id: '1046381927450114',
    name: 'appointment_reminder',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [
      { type: 'BODY', text: 'Hello {{1}}, this is a reminder of your appointment on {{2}} at {{3}}.' },
      { type: 'FOOTER', text: 'Acme Clinic' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Confirm' },
          { type: 'QUICK_REPLY', text: 'Reschedule' },
        ],
      },
    ],
  },
  {
    id: '1046381927450115',
    name: 'welcome_offer',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Welcome, {{1}}! Enjoy {{2}} off your first order with code WELCOME.' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop now', url: 'https://shop.example.com/welcome' }] },
    ],
    quality_score: { score: 'YELLOW', date: SCORED_AT },
  },
  {
    id: '1046381927450116',
    name: 'verification_code',
    status: 'APPROVED',
    category: 'AUTHENTICATION',
    language: 'en_US',
    components: [
      { type: 'BODY', text: '{{1}} is your verification code. For your security, do not share this code.' },
      { type: 'FOOTER', text: 'This code expires in 10 minutes.' },
    ],
  },
  {
    id: '1046381927450117',
    name: 'invoice_available',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'pt_BR',
    components: [
      { type: 'HEADER', format: 'DOCUMENT' },
      { type: 'BODY', text: 'Olá {{1}}, sua fatura {{2}} já está disponível.' },
    ],
  },
  {
    id: '1046381927450118',
    name: 'product_launch_video',
    status: 'PENDING',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'VIDEO' },
      { type: 'BODY', text: 'Meet the new {{1}}: available from today.' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Watch more', url: 'https://shop.example.com/launch' }] },
    ],
  },
  {
    id: '1046381927450119',
    name: 'shipping_discount',
    status: 'REJECTED',
    category: 'UTILITY',
    language: 'en_US',
    components: [{ type: 'BODY', text: 'Your parcel ships tomorrow. Order again today and get free shipping!' }],
    rejected_reason: 'TAG_CONTENT_MISMATCH',
  },
  {
    id: '1046381927450120',
    name: 'seasonal_newsletter',
    status: 'PAUSED',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} picks' },
      { type: 'BODY', text: 'Hi {{1}}, the new season collection is here.' },
    ],
    quality_score: { score: 'RED', date: SCORED_AT },
  },
  {
    id: '1046381927450121',
    name: 'legacy_delivery_update',
    status: 'DISABLED',
    category: 'UTILITY',
    language: 'en_US',
    components: [{ type: 'BODY', text: 'Your delivery {{1}} is on its way.' }],
    quality_score: { score: 'RED', date: SCORED_AT },
  },
  {
    id: '1046381927450122',
    name: 'order_shipped',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Hi {{first_name}}, your order {{order_id}} is on its way.' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track parcel', url: 'https://shop.example.com/track/{{1}}' }] },
    ],
  },
  {
    id: '1046381927450123',
    name: 'coupon_offer',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'A gift for {{1}}' },
      { type: 'BODY', text: 'Enjoy {{1}} off your next order.' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'COPY_CODE', text: 'Copy offer code' },
          { type: 'QUICK_REPLY', text: 'Not interested' },
        ],
      },
    ],
  },
  {
    id: '1046381927450124',
    name: 'spring_sale',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'BODY', text: 'Hi {{1}}, our spring sale starts today: {{2}} off everything in store.' },
      { type: 'FOOTER', text: 'Reply STOP to stop offers.' },
    ],
  },
];
