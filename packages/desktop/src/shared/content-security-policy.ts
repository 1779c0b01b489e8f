/**
 * The renderer's Content-Security-Policy, the same in Electron (meta tag + response header) and under
 * `encplan ui`: own scripts and styles only, no inline script, no eval, API calls to the same origin only.
 * Charts are SVG built with presentation attributes, so no 'unsafe-inline' is needed for styles either.
 */
const DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
] as const;

/** The policy as a response header (Electron's session, `encplan ui`). */
export const CONTENT_SECURITY_POLICY = [...DIRECTIVES, "frame-ancestors 'none'"].join('; ');

/** The same policy for the page's <meta> tag, where browsers ignore frame-ancestors (CSP3 §6.2.2). */
export const CONTENT_SECURITY_POLICY_META = DIRECTIVES.join('; ');
