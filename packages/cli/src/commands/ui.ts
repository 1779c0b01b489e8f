import { Flags } from '@oclif/core';
import { uiDocument } from '@encplan/core';
import { EncplanCommand } from '../base-command.js';
import { untilStopped } from '../cancellation.js';
import { ExitCode } from '../exit-codes.js';

/**
 * `encplan ui`: the desktop wizard served to a browser on 127.0.0.1 with a random port and a per-run
 * token, so a headless server can be assessed over an SSH tunnel. Stops on Ctrl-C or SIGTERM (exit 130), cancelling running jobs. With --json prints one `encplan.ui` envelope `{url, port}`.
 */
export default class Ui extends EncplanCommand {
  static override summary =
    'Serve the wizard on 127.0.0.1 for a browser (use an SSH tunnel for a remote machine).';
  static override description =
    'Prints a URL with a one-time token. Only this machine can connect (loopback); other hosts and origins are refused. ' +
    'The wizard runs the same assessment as `encplan assess`, or shows saved ones given with --assessment.';
  static override flags = {
    assessment: Flags.string({
      summary:
        'Show a saved assessment (encplan assess --json output) instead of assessing this machine; repeatable.',
      multiple: true,
      default: [],
    }),
    port: Flags.integer({
      summary: 'Port on 127.0.0.1 (default: a random free port).',
      default: 0,
      min: 0,
      max: 65535,
    }),
    'step-delay-ms': Flags.integer({
      summary: 'Pause between replayed benchmark steps, in ms.',
      default: 250,
      min: 0,
      max: 10_000,
      hidden: true,
    }),
  };
  readonly document = uiDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Ui);
    // Loaded here, not at the top: node:http pulls in Node's undici and the server is only ever used by this
    // command, so every other command starts without it (docs/performance.md).
    const { createBridgeHandlers, createWizardBackend, RENDERER_DIR, startUiServer } =
      await import('@encplan/desktop/server');
    const backend = await createWizardBackend({
      assessmentFiles: flags.assessment,
      searchPath: process.env.PATH ?? '',
      userId: typeof process.getuid === 'function' ? process.getuid() : null,
      stepDelayMs: flags['step-delay-ms'],
    });
    const server = await startUiServer({
      rendererDir: RENDERER_DIR,
      handlers: createBridgeHandlers(backend.services, backend.jobs),
      port: flags.port,
    });
    if (flags.json) {
      // The one envelope of this run; stopping it later prints nothing more on stdout (exit 130 says it).
      this.emitOkEnvelope({ url: server.url, port: server.port });
    } else {
      this.log(`encplan ui is serving the wizard at ${server.url}`);
      this.log(
        `From another machine: ssh -L ${String(server.port)}:127.0.0.1:${String(server.port)} THIS-HOST, then open the URL there.`,
      );
      this.log('Press Ctrl-C to stop.');
    }
    const signal = await untilStopped();
    process.stderr.write(`encplan: ${signal} received, stopping the wizard…\n`);
    await backend.jobs.cancelAll();
    await server.close();
    // Stopped by a signal, as README "Exit codes" documents: 130, like every cancelled command.
    this.exit(ExitCode.cancelled);
  }
}
