// wrap-ansi's API is declared once, in the core package, which uses it too.
/// <reference path="../../../core/src/types/wrap-ansi.d.ts" />
