/**
 * The front's dispatcher: finds the route of a request path in the route table, the way Express would route
 * it (case-insensitive, one trailing slash allowed, a parameter is one non-empty segment, percent-decoded),
 * at the cost of a few string comparisons. Routes are tried in table order, so a fixed path listed first
 * (`/api/v1/tokens/balances`) wins over a parameter (`/api/v1/tokens/{tokenId}`). A route with `accepts` takes
 * only the parameters it accepts; others go on to later routes (and, past the table, to Express).
 */
import { HttpError } from "./http-errors.ts";

export type RouteMatch<R> = { route: R; params: Record<string, string> };

type Compiled<R> = {
  route: R;
  /** Lower-cased fixed segments, or null where the template has a parameter. */
  segments: (string | null)[];
  names: string[];
};

/** Returns the matcher of `routes`; it throws a 400 `HttpError` for a parameter that is not valid UTF-8. */
export function createRouteMatcher<
  R extends { template: string; accepts?: (params: Readonly<Record<string, string>>) => boolean },
>(routes: readonly R[]): (path: string) => RouteMatch<R> | null {
  const compiled: Compiled<R>[] = routes.map((route) => {
    const names: string[] = [];
    const segments = route.template
      .split("/")
      .slice(1)
      .map((segment) => {
        if (segment.startsWith("{") && segment.endsWith("}")) {
          names.push(segment.slice(1, -1));
          return null;
        }
        return segment.toLowerCase();
      });
    return { route, segments, names };
  });

  return (path) => {
    let trimmed = path;
    if (trimmed.length > 1 && trimmed.endsWith("/")) trimmed = trimmed.slice(0, -1);
    const parts = trimmed.split("/").slice(1);
    for (const candidate of compiled) {
      if (candidate.segments.length !== parts.length) continue;
      let matched = true;
      for (let i = 0; i < parts.length && matched; i++) {
        const fixed = candidate.segments[i];
        const part = parts[i]!;
        matched =
          fixed === null || fixed === undefined
            ? part.length > 0
            : fixed.length === part.length && fixed === part.toLowerCase();
      }
      if (!matched) continue;
      const params: Record<string, string> = {};
      let n = 0;
      const accepts = candidate.route.accepts;
      try {
        for (let i = 0; i < parts.length; i++) {
          if (candidate.segments[i] === null) params[candidate.names[n++]!] = decodeParam(parts[i]!);
        }
      } catch (error) {
        // A route that picks its parameters takes none that do not decode.
        if (accepts !== undefined) continue;
        throw error;
      }
      if (accepts !== undefined && !accepts(params)) continue;
      return { route: candidate.route, params };
    }
    return null;
  };
}

function decodeParam(raw: string): string {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    // Express's own answer to an undecodable parameter.
    throw new HttpError(400, [`Failed to decode param '${raw}'`]);
  }
}

/**
 * The path parameters of a URL under a template the front matched it to already (a read worker's side of the
 * match: the front sends the template and the URL, not the parameters). The URL's path has the template's
 * segments, one trailing slash allowed; its parameters are decoded as the matcher decodes them (they decoded
 * there, or the request went no further). Templates are compiled once, on first use.
 */
export function createParamsReader(): (template: string, url: string) => Record<string, string> {
  const positions = new Map<string, { index: number; name: string }[]>();
  const compile = (template: string) => {
    const found: { index: number; name: string }[] = [];
    template
      .split("/")
      .slice(1)
      .forEach((segment, index) => {
        if (segment.startsWith("{") && segment.endsWith("}"))
          found.push({ index, name: segment.slice(1, -1) });
      });
    positions.set(template, found);
    return found;
  };
  return (template, url) => {
    const names = positions.get(template) ?? compile(template);
    const params: Record<string, string> = {};
    if (names.length === 0) return params;
    const question = url.indexOf("?");
    const parts = (question === -1 ? url : url.slice(0, question)).split("/").slice(1);
    for (const { index, name } of names) params[name] = decodeParam(parts[index] ?? "");
    return params;
  };
}
