// The account's apiBaseUrl for the `mercadopago` package, which has no base URL setting: its requests go
// to a static https://api.mercadopago.com through the global fetch(), and it hands its config options to
// fetch() as the request init. Node's fetch takes a `dispatcher` there, so an overridden account (tests,
// proxies; GATEWAY_ALLOW_BASE_URL_OVERRIDE) gets one that re-aims each request at its base URL and passes it
// to the process's global dispatcher, which undici keeps at a documented global symbol shared by its
// versions. Accounts without an override never use this.

const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

interface DispatchOptions {
  origin?: string | URL;
  path: string;
  [key: string]: unknown;
}

interface Dispatcher {
  dispatch(options: DispatchOptions, handler: unknown): boolean;
}

export function rebasedDispatcher(apiBaseUrl: string): Dispatcher {
  const base = new URL(apiBaseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  return {
    dispatch(options, handler) {
      // Read at dispatch time: fetch() has loaded undici, which installs its global dispatcher, by then.
      const global = (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER];
      if (!global) throw new Error("no global fetch dispatcher");
      return global.dispatch({ ...options, origin: base.origin, path: `${prefix}${options.path}` }, handler);
    },
  };
}
