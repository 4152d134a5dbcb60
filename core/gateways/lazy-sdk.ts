// A provider's SDK imported on first use, once per process: a process where no tenant has an account on
// that provider never loads it (each SDK adds megabytes of resident memory from its import alone).
// Adapters import the SDK's types only, and await `load()` where they build a client or need one of its values.

export interface LazySdk<T> {
  /** The module, imported by the first call; every call shares that one import. */
  load(): Promise<T>;
  /**
   * The module once imported, else undefined. For synchronous checks (`instanceof` one of its error
   * classes): before the import nothing of the SDK exists, so nothing can be an instance of its classes.
   */
  loaded(): T | undefined;
}

export function lazySdk<T>(importModule: () => Promise<T>): LazySdk<T> {
  let pending: Promise<T> | undefined;
  let module: T | undefined;
  return {
    load: () =>
      (pending ??= importModule().then(
        (m) => (module = m),
        (err) => {
          // A failed import is not kept: the next call tries again.
          pending = undefined;
          throw err;
        },
      )),
    loaded: () => module,
  };
}
