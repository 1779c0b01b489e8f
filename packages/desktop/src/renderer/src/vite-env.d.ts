/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "fake" builds the wizard over fixture assessments (development, Playwright). */
  readonly VITE_BRIDGE?: string;
}
