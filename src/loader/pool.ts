/**
 * Bounded concurrency over a stream: N workers each pull the next item only when they are free,
 * so no more than N items are ever taken from the source ahead of their completion (the
 * source's own small buffer aside) whatever the size of the input.
 */

/**
 * Runs `work` on every item of `source`, at most `concurrency` at once, until the source ends
 * or `stopped()` turns true (then in-flight items finish and nothing new is taken). A failure
 * of the source or of `work` stops the run the same way and is thrown once all have settled.
 */
export async function runPool<T>(
  source: AsyncIterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let exhausted = false;
  let failure: { error: unknown } | undefined;
  // Pulls are chained: one next() at a time, in order, whatever the source tolerates.
  let queue: Promise<unknown> = Promise.resolve();

  const pull = (): Promise<IteratorResult<T>> => {
    const next = queue.then(() =>
      exhausted || failure ? ({ done: true, value: undefined } as const) : iterator.next(),
    );
    queue = next.catch(() => undefined);
    return next;
  };

  const worker = async () => {
    try {
      while (!exhausted && !failure && !stopped()) {
        const next = await pull();
        if (next.done) {
          exhausted = true;
          return;
        }
        await work(next.value);
      }
    } catch (error) {
      failure ??= { error };
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  // Closes the file when the run stopped before its end.
  if (!exhausted) await iterator.return?.();
  if (failure) throw failure.error;
}
