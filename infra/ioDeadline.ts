// A deadline for an answer from another process that passes only once the I/O already waiting at that moment has
// been read. Node runs due timers before it reads sockets, so a plain setTimeout finds an answer that arrived in time
// still unread whenever the process itself was held up (a busy CPU, a long synchronous task): a healthy Redis was
// then called late, its connection dropped, and rate limits counted per instance.

/** The answer, or 'late' when it has not come by the deadline (a rejection that comes later is ignored). */
export async function answerWithin<T>(answer: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => setImmediate(() => resolve('late')), ms)));
  answer.catch(() => undefined);
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
