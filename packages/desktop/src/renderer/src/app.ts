import {
  assessmentDocument,
  planFromAssessment,
  planTargetChoices,
  printableData,
  toReportViewFromJson,
  type WizardAssessRequest,
} from '@encplan/core';
import { planOptionsOf } from './plan-options.js';
import type { BridgeEnvelope, EncplanBridge } from '../../shared/bridge.js';
import { h, patchChildren } from './element-builder.js';
import { renderBenchmarkStep } from './steps/benchmark-step.js';
import { renderDriveStep } from './steps/drive-step.js';
import { renderExportStep } from './steps/export-step.js';
import { renderHealthStep } from './steps/health-step.js';
import { renderPlanStep } from './steps/plan-step.js';
import { errorState } from './steps/error-state.js';
import { STEPS, type WizardActions, type WizardState } from './wizard-state.js';
import { nextShownProgress } from './progress-estimate.js';

/** How often the wizard asks a running job for progress. */
const POLL_INTERVAL_MS = 200;

/** Starts the wizard in `root` over a bridge. */
export function startWizard(root: HTMLElement, bridge: EncplanBridge): void {
  const state: WizardState = {
    step: 1,
    devices: null,
    capabilities: null,
    error: null,
    selectedDevice: null,
    lastDevice: null,
    benchmarkMode: 'quick',
    selectedBackends: [],
    job: null,
    jobKind: 'facts',
    shownProgress: null,
    footprint: null,
    assessedEnvelope: null,
    planChoices: {
      targetTool: null,
      threatModel: 'lost-device',
      workload: 'desktop',
      unlockMemoryMiB: '',
      passwordLength: '',
      speedOverSecurity: false,
    },
    planChoicesTouched: false,
    planError: null,
    targetChoices: [],
    envelope: null,
    view: null,
    notice: '',
  };
  let focusHeading = false;

  const unwrap = <Result>(envelope: BridgeEnvelope<Result>): Result | null => {
    if (envelope.status === 'error' || envelope.result === null) {
      state.error = envelope.error;
      return null;
    }
    state.error = null;
    return envelope.result;
  };

  const runJob = async (request: WizardAssessRequest, onDone: () => void): Promise<void> => {
    state.job = null;
    state.jobKind = request.benchmark === 'none' ? 'facts' : 'benchmark';
    state.shownProgress = null;
    render();
    const started = unwrap(await bridge.startAssessment(request));
    if (started === null) {
      render();
      return;
    }
    for (;;) {
      const snapshot = unwrap(await bridge.jobStatus(started.jobId));
      if (snapshot === null) {
        render();
        return;
      }
      state.job = snapshot;
      state.shownProgress = nextShownProgress(state.shownProgress, snapshot.progress, Date.now());
      if (snapshot.state !== 'running') {
        if (snapshot.state === 'done' || snapshot.state === 'failed') {
          takeAssessment(snapshot.envelope);
          onDone();
        } else {
          state.notice = 'Benchmark cancelled; everything it created was cleaned up.';
        }
        render();
        return;
      }
      render();
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  };

  /** A finished assessment: kept as measured, its plan's options shown, re-planned with any the person chose. */
  const takeAssessment = (envelope: unknown): void => {
    state.assessedEnvelope = envelope;
    state.envelope = envelope;
    state.view = toReportViewFromJson(envelope);
    const parsed = assessmentDocument.envelope.safeParse(envelope);
    const result = parsed.success ? parsed.data.result : null;
    state.targetChoices = planTargetChoices(result?.machine?.os.platform);
    const plan = result?.plan ?? null;
    if (plan !== null && !state.planChoicesTouched) {
      state.planChoices = {
        ...state.planChoices,
        targetTool: plan.targetTool,
        threatModel: plan.threatModel,
        workload: plan.workload,
      };
    }
    // Planned by this version's rules (a saved file may come from an older one, without a strategy).
    if (plan !== null) {
      replan();
    }
  };

  /** Plans again from the same assessment with the chosen options (core's plan function; nothing is measured). */
  const replan = (): void => {
    const envelope = state.assessedEnvelope;
    const parsed = assessmentDocument.envelope.safeParse(envelope);
    if (!parsed.success || parsed.data.result === null) {
      return;
    }
    const options = planOptionsOf(state.planChoices);
    if ('error' in options) {
      state.planError = options.error;
      return;
    }
    try {
      const plan = planFromAssessment(envelope, options.options);
      const replanned = { ...parsed.data, result: { ...parsed.data.result, plan } };
      state.envelope = replanned;
      state.view = toReportViewFromJson(replanned);
      state.planError = null;
    } catch (error) {
      state.planError = `This plan cannot be made: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  const actions: WizardActions = {
    setPlanChoices(change) {
      state.planChoices = { ...state.planChoices, ...change };
      state.planChoicesTouched = true;
      replan();
      render();
    },
    selectDevice(path) {
      state.selectedDevice = path;
      render();
    },
    goTo(step) {
      state.step = Math.min(Math.max(step, 1), STEPS.length);
      state.notice = '';
      focusHeading = true;
      render();
      if (state.step === 3) {
        refreshFootprint();
      }
    },
    assessFacts() {
      if (state.selectedDevice === null) {
        return;
      }
      state.view = null;
      state.error = null;
      state.footprint = null;
      state.lastDevice = state.selectedDevice;
      actions.goTo(2);
      void runJob({ device: state.selectedDevice, benchmark: 'none', backends: [] }, () => undefined);
    },
    refreshDevices() {
      state.error = null;
      state.view = null;
      state.step = 1;
      focusHeading = true;
      loadDevices(true);
    },
    setBenchmarkMode(mode) {
      state.benchmarkMode = mode;
      render();
      refreshFootprint();
    },
    toggleBackend(id, on) {
      state.selectedBackends = on
        ? [...new Set([...state.selectedBackends, id])]
        : state.selectedBackends.filter((entry) => entry !== id);
      render();
      refreshFootprint();
    },
    startBenchmark() {
      if (state.selectedDevice === null) {
        return;
      }
      state.notice = '';
      void runJob(
        { device: state.selectedDevice, benchmark: state.benchmarkMode, backends: state.selectedBackends },
        () => {
          state.notice = 'Benchmark finished.';
        },
      );
    },
    cancelJob() {
      const job = state.job;
      if (job === null || job.state !== 'running') {
        return;
      }
      state.notice = 'Cancelling and cleaning up…';
      render();
      void bridge.cancel(job.jobId).then((envelope) => {
        const snapshot = unwrap(envelope);
        if (snapshot !== null) {
          state.job = snapshot;
        }
        render();
      });
    },
    notify(message) {
      state.notice = message;
      render();
    },
  };

  function stepContent(): HTMLElement {
    switch (state.step) {
      case 1:
        return renderDriveStep(state, actions);
      case 2:
        return renderHealthStep(state, actions);
      case 3:
        return renderBenchmarkStep(state, actions);
      case 4:
        return renderPlanStep(state, actions);
      default:
        return renderExportStep(state, actions);
    }
  }

  function render(): void {
    const stepper = h(
      'nav',
      { 'aria-label': 'Wizard steps' },
      h(
        'ol',
        { class: 'stepper' },
        STEPS.map((name, index) =>
          h(
            'li',
            {
              class: index + 1 === state.step ? 'current' : index + 1 < state.step ? 'done' : '',
              'aria-current': index + 1 === state.step ? 'step' : null,
            },
            h('span', { class: 'step-number' }, String(index + 1)),
            ` ${name}`,
          ),
        ),
      ),
    );
    const error =
      state.error === null
        ? null
        : errorState(state.error, state.selectedDevice ?? state.lastDevice, {
            retry: () => {
              state.error = null;
              loadDevices();
            },
            refreshDevices: () => {
              actions.refreshDevices();
            },
          });
    // Updated in place (patchChildren): unchanged nodes stay, so focus, a press in progress and open
    // details survive the 200 ms progress polls.
    patchChildren(root, [
      stepper,
      h('main', { id: 'content', class: `step-${String(state.step)}` }, error, stepContent()),
      h('p', { class: 'notice', role: 'status', 'aria-live': 'polite' }, state.notice),
    ]);
    if (focusHeading) {
      focusHeading = false;
      root.querySelector<HTMLElement>('#content h1')?.focus();
    }
  }

  /** Asks the back end where a benchmark with the current choices would write (the folder the run will use). */
  function refreshFootprint(): void {
    const device = state.selectedDevice;
    if (device === null) {
      return;
    }
    const request = { device, benchmark: state.benchmarkMode, backends: state.selectedBackends };
    void bridge.benchmarkFootprint(request).then((envelope) => {
      // Only the answer for the choices still on screen counts (a quicker later answer may have come first).
      if (
        envelope.status === 'ok' &&
        state.selectedDevice === device &&
        state.benchmarkMode === request.benchmark &&
        state.selectedBackends.join() === request.backends.join()
      ) {
        state.footprint = envelope.result;
        render();
      }
    });
  }

  /** (Re)reads the drives and what this machine can measure: at start, from "Try again" and from Refresh. */
  function loadDevices(refreshed = false): void {
    render();
    void Promise.all([bridge.listDevices(), bridge.capabilities()]).then(([devices, capabilities]) => {
      const listed = unwrap(devices);
      const caps = unwrap(capabilities);
      // lsblk's strings (a model with a carriage return) enter the wizard's view here, escaped.
      state.devices = printableData(listed?.devices ?? []);
      state.capabilities = caps;
      state.selectedBackends =
        caps?.backends.filter((backend) => backend.available).map((backend) => backend.id) ?? [];
      const chosen = state.selectedDevice ?? state.lastDevice;
      if (chosen !== null && !state.devices.some((device) => device.path === chosen)) {
        state.selectedDevice = null;
        state.notice = `${chosen} is no longer listed: it was unplugged or detached. Pick a drive from the refreshed list.`;
      } else if (refreshed && listed !== null) {
        state.notice = `Drive list refreshed: ${String(state.devices.length)} drive${state.devices.length === 1 ? '' : 's'}.`;
      }
      render();
    });
  }

  loadDevices();
}
