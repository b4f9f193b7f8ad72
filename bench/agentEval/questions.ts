// The evaluation's questions: fifty, as customers type them (lower case, without accents, plural or singular,
// follow-ups), each with the piece of the one sentence that answers it, or HAND_OFF when the documents do not
// answer it (the agent must then say it has no answer rather than reply with a sentence).
export const HAND_OFF = 'hand off';

/** `previous`: the contact's question before this one (for follow-ups). */
export type EvalQuestion = { question: string; expected: string; previous?: string };

export const QUESTIONS: EvalQuestion[] = [
  // English: Shipping and returns
  { question: 'How much is shipping to Spain for a 30 euro order?', expected: 'Shipping is free for orders over 50 euros' },
  { question: 'Can I return a shirt I already wore?', expected: 'Returns are accepted within 30 days' },
  { question: 'Are you open on Sunday?', expected: 'closed on Sundays' },
  { question: 'Which countries do you deliver to?', expected: 'We ship to Spain, Portugal, France and Germany' },
  { question: 'and to France?', previous: 'Do you ship to Germany?', expected: 'We ship to Spain, Portugal, France and Germany' },
  { question: 'When will I get my refund?', expected: 'Refunds are paid to the original payment method' },
  { question: 'how long does delivery take', expected: 'delivery takes 2 to 4 working days' },
  // English: Payments
  { question: 'Do you take PayPal?', expected: 'We accept Visa, Mastercard' },
  { question: 'Can I pay cash when the parcel arrives?', expected: 'Cash on delivery is not available' },
  { question: 'Can I pay in instalments?', expected: 'three interest-free instalments with Klarna' },
  { question: 'Where do I find my invoice?', expected: 'Invoices are emailed to you as a PDF' },
  // English: Orders and account
  { question: 'How can I track my order?', expected: 'You can track your parcel with the tracking link' },
  { question: 'I want to cancel my order', expected: 'An order can be cancelled free of charge' },
  { question: 'I forgot my password', expected: 'You can reset your password' },
  { question: 'How do I change my delivery address?', expected: 'To change the delivery address' },
  // English: Warranty
  { question: 'How long is the warranty?', expected: 'two-year warranty against manufacturing defects' },
  { question: 'My phone fell in water, is that covered?', expected: 'Damage caused by accidents, water or misuse' },
  // English: not in the documents
  { question: 'Do you sell gift cards?', expected: HAND_OFF },
  { question: 'Is there a student discount?', expected: HAND_OFF },
  { question: 'Can I book a table for tonight?', expected: HAND_OFF },

  // Portuguese
  { question: 'Quanto custa o frete?', expected: 'O frete é grátis para compras acima de 200 reais' },
  { question: 'qual o prazo de entrega pra São Paulo?', expected: 'o prazo de entrega é de 3 a 7 dias úteis' },
  { question: 'Vocês aceitam devoluções?', expected: 'As devoluções são aceitas em até 7 dias' },
  { question: 'como funciona a devolucao?', expected: 'As devoluções são aceitas em até 7 dias' },
  { question: 'Quando recebo o reembolso?', expected: 'O reembolso é feito na mesma forma de pagamento' },
  { question: 'Qual o horário das lojas no domingo?', expected: 'Nossas lojas físicas abrem de segunda a sábado' },
  { question: 'Quais são as formas de pagamento?', expected: 'Aceitamos Pix, boleto bancário' },
  { question: 'Posso parcelar no cartão?', expected: 'podem ser parceladas em até 10 vezes sem juros' },
  { question: 'Tem desconto no pix?', expected: 'Pagamentos com Pix têm 5% de desconto' },
  { question: 'Quando o boleto vence?', expected: 'O boleto vence em 3 dias' },
  { question: 'Posso trocar o tamanho?', expected: 'A primeira troca de tamanho é gratuita' },
  { question: 'Os calçados têm garantia?', expected: 'Todos os calçados têm garantia de 90 dias' },
  // Portuguese: not in the documents
  { question: 'Vocês vendem cartão presente?', expected: HAND_OFF },
  { question: 'Tem vaga de estacionamento?', expected: HAND_OFF },
  { question: 'Vocês fazem entrega internacional para o Japão?', expected: HAND_OFF },

  // Spanish
  { question: '¿Cuánto tarda el envío?', expected: 'Enviamos a toda España peninsular en 24 a 48 horas' },
  { question: '¿Y a Canarias?', previous: '¿Cuánto tarda el envío?', expected: 'Los envíos a Canarias y Baleares tardan' },
  { question: '¿El envío es gratis?', expected: 'El envío es gratuito en pedidos superiores a 40 euros' },
  { question: '¿Cuántos días tengo para devolver un pedido?', expected: 'Tienes 14 días desde la recepción' },
  { question: '¿Cuándo me devuelven el dinero?', expected: 'El reembolso se realiza en un plazo máximo de 7 días' },
  { question: '¿Puedo pagar con Bizum?', expected: 'Aceptamos tarjeta, PayPal y Bizum' },
  { question: '¿Cuánto cuesta el contra reembolso?', expected: 'El pago contra reembolso tiene un recargo' },
  { question: 'necesito factura para mi empresa', expected: 'Si necesitas factura a nombre de una empresa' },
  { question: '¿Dónde está la tienda?', expected: 'Nuestra tienda está en la Calle Mayor 12' },
  { question: '¿Qué horario tiene la tienda los sábados?', expected: 'El horario de la tienda es de lunes a viernes' },
  { question: '¿Cuánto tiempo son válidos los cheques regalo?', expected: 'Los cheques regalo tienen una validez' },
  { question: '¿Puedo pedir cita para probarme ropa?', expected: 'Puedes reservar una cita' },
  // Spanish: not in the documents
  { question: '¿Tienen aparcamiento?', expected: HAND_OFF },
  { question: '¿Venden muebles de jardín?', expected: HAND_OFF },
  { question: '¿Hacen descuentos para estudiantes?', expected: HAND_OFF },
];
