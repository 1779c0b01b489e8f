// wrap-ansi 7 (the version @oclif/core uses) ships no types: its API as its readme documents it.
declare module 'wrap-ansi' {
  interface Options {
    readonly hard?: boolean;
    readonly wordWrap?: boolean;
    readonly trim?: boolean;
  }
  export default function wrapAnsi(input: string, columns: number, options?: Options): string;
}
