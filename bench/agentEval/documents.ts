// The evaluation's knowledge: ten documents in three languages (English, Portuguese, Spanish), written as small
// businesses write their help pages: plain paragraphs, Markdown headings and lists. Each sentence a question below
// expects is unique across the set, so a reply either holds it or does not.
export type EvalDocument = { title: string; language: string; content: string };

export const DOCUMENTS: EvalDocument[] = [
  {
    title: 'Shipping and returns',
    language: 'en',
    content:
      'We ship to Spain, Portugal, France and Germany, and delivery takes 2 to 4 working days. ' +
      'Shipping is free for orders over 50 euros; below that it costs 4.90 euros. ' +
      'Returns are accepted within 30 days if the item is unused and still has its labels. ' +
      'Refunds are paid to the original payment method within 5 working days of receiving the return. ' +
      'Our customer service is open Monday to Saturday from 9:00 to 18:00 and closed on Sundays.',
  },
  {
    title: 'Payments',
    language: 'en',
    content: `# Payments

We accept Visa, Mastercard, American Express, PayPal and Apple Pay.

Cash on delivery is not available.

You can pay in three interest-free instalments with Klarna on orders above 100 euros.

Invoices are emailed to you as a PDF as soon as the order ships.`,
  },
  {
    title: 'Orders and account',
    language: 'en',
    content: `# Orders

You can track your parcel with the tracking link in your shipping confirmation email.
An order can be cancelled free of charge until it has been packed, usually within two hours.
To change the delivery address, reply to your order confirmation before the order ships.

# Account

You can reset your password from the login page with the "Forgot password" link.
Deleting your account removes your order history and cannot be undone.`,
  },
  {
    title: 'Warranty and repairs',
    language: 'en',
    content: `All our products carry a two-year warranty against manufacturing defects.

- To claim the warranty, send us a photo of the defect and your order number.
- Damage caused by accidents, water or misuse is not covered.
- Repairs outside the warranty are quoted before any work starts.`,
  },
  {
    title: 'Entregas e devoluções',
    language: 'pt',
    content:
      'Entregamos em todo o Brasil e o prazo de entrega é de 3 a 7 dias úteis. ' +
      'O frete é grátis para compras acima de 200 reais. ' +
      'As devoluções são aceitas em até 7 dias após o recebimento, com o produto sem uso e na embalagem original. ' +
      'O reembolso é feito na mesma forma de pagamento em até 10 dias úteis. ' +
      'Nossas lojas físicas abrem de segunda a sábado, das 10h às 22h, e aos domingos das 14h às 20h.',
  },
  {
    title: 'Pagamentos',
    language: 'pt',
    content: `# Formas de pagamento

Aceitamos Pix, boleto bancário e cartões de crédito Visa, Mastercard e Elo.

Compras no cartão de crédito podem ser parceladas em até 10 vezes sem juros.

O boleto vence em 3 dias e o pedido só é enviado depois da confirmação do pagamento.

Pagamentos com Pix têm 5% de desconto.`,
  },
  {
    title: 'Troca de tamanho e garantia',
    language: 'pt',
    content: `A primeira troca de tamanho é gratuita e pode ser pedida pelo WhatsApp.
As peças em promoção não podem ser trocadas por outro modelo.
Todos os calçados têm garantia de 90 dias contra defeitos de fabricação.
Para acionar a garantia, envie fotos do defeito e o número do pedido.`,
  },
  {
    title: 'Envíos y devoluciones',
    language: 'es',
    content:
      'Enviamos a toda España peninsular en 24 a 48 horas laborables. ' +
      'Los envíos a Canarias y Baleares tardan entre 4 y 6 días. ' +
      'El envío es gratuito en pedidos superiores a 40 euros. ' +
      'Tienes 14 días desde la recepción para devolver un artículo sin usar. ' +
      'El reembolso se realiza en un plazo máximo de 7 días tras recibir la devolución.',
  },
  {
    title: 'Pagos y facturas',
    language: 'es',
    content: `# Pagos

Aceptamos tarjeta, PayPal y Bizum.

El pago contra reembolso tiene un recargo de 3 euros.

# Facturas

Si necesitas factura a nombre de una empresa, indica el CIF al hacer el pedido.`,
  },
  {
    title: 'Tienda y atención al cliente',
    language: 'es',
    content: `Nuestra tienda está en la Calle Mayor 12 de Madrid.
El horario de la tienda es de lunes a viernes de 10:00 a 20:00 y los sábados de 10:00 a 14:00.
Puedes reservar una cita para probarte ropa en la tienda desde nuestra web.
Los cheques regalo tienen una validez de un año.`,
  },
];
