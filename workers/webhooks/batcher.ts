// Groups items written to the database one statement per group: a group is written when `maxSize` items
// wait, or `maxDelayMs` after the first of them; items arriving during a write form the next group.
// add() settles with the outcome of the write that carried the item.
export type Batcher<Item, Result> = { add(item: Item): Promise<Result> };

export function createBatcher<Item, Result>(
  write: (items: Item[]) => Promise<Result>,
  options: { maxSize: number; maxDelayMs: number },
): Batcher<Item, Result> {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing = false;

  function flush() {
    clearTimeout(timer);
    timer = undefined;
    if (writing || waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    writing = true;
    write(group.map((entry) => entry.item))
      .then(
        (result) => group.forEach((entry) => entry.resolve(result)),
        (error: unknown) => group.forEach((entry) => entry.reject(error)),
      )
      .finally(() => {
        writing = false;
        flush();
      });
  }

  return {
    add(item) {
      return new Promise<Result>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (waiting.length >= options.maxSize) flush();
        else timer ??= setTimeout(flush, options.maxDelayMs);
      });
    },
  };
}
