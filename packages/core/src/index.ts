/**
 * @encplan/core: the environment-neutral entry, curated. Exactly what the CLI and the desktop use, by name,
 * ordered by layer (packages/core/layers.json); nothing here imports Node, so the desktop renderer can use it
 * too. Node adapters: "@encplan/core/node". Each export is documented where it is declared, and
 * tests/architecture/public-api.test.ts fails on an export nobody uses. Core's own tests import modules directly.
 */

// foundation: typed errors, the tool version, the Host and Clock ports
export { cancelled, EncplanError, type ErrorCode, isEncplanError, toolNotFound } from './errors.js';
export { type Host, type HostEffects } from './ports.js';
export { TOOL_VERSION } from './version.js';

// domain: zod schemas of every fact; the JSON contract is generated from them
export {
  cipherBenchmarkSchema,
  cipherSpeedSchema,
  type KernelCryptoFacts,
  kernelCryptoSchema,
} from './domain/cipher.js';
export { type StackNode } from './domain/device.js';
export { healthSchema, type HealthVerdict, verdictMeetsThreshold } from './domain/health.js';
export {
  type BackendId,
  type FioRun,
  type ProgressEvent,
  type TargetMeasurement,
} from './domain/io-benchmark.js';
export { kdfSpeedSchema } from './domain/kdf.js';
export { formatBytes, formatDuration, formatRate, toMebibytesPerSecond } from './domain/units.js';
export { type Warning } from './domain/warning.js';

// parsers: tool output bytes to typed values, failing closed
export { parseLosetupList } from './parsers/losetup/parse-losetup-list.js';
export { deriveKernelCryptoFacts } from './parsers/proc-crypto/kernel-crypto-facts.js';
export { parseProcCrypto } from './parsers/proc-crypto/parse-proc-crypto.js';
export { parseMountinfo } from './parsers/proc/mountinfo.js';

// targets: one folder per encryption target and their registry
export { benchmarkIdsOn, SELECTABLE_BENCHMARK_IDS } from './targets/registry.js';
// probes: ask the Host (run a tool, read a file) and parse the answer into facts
export { probeCipherSpeed, probeKdfSpeed } from './probes/cipher-speed.js';
export { probeKernelCrypto } from './probes/kernel-crypto.js';
export { probeDiscardStack } from './probes/linux/discard-stack.js';
export { probeHealth } from './probes/linux/health.js';
export { readSysfsStack } from './probes/linux/sysfs-stack.js';
export { createProbeContext } from './probes/probe-context.js';

// analyses: facts to assessment sections (health verdict, TRIM, discard passthrough, space)
export { analyseDiscardPassthrough } from './analyses/discard-passthrough.js';
export { assessDriveSections } from './analyses/drive-sections.js';
export { cacheAbsorbed } from './analyses/io-overhead.js';
export { driveSummarySchema } from './analyses/drive-summary.js';
export { summarizeRuns } from './analyses/run-summary.js';

// rules: one decision each, with its cited threshold

// plan: rules combined into settings, predictions and exact commands
export { type PlanCommand } from './plan/commands.js';
export { STANDARD_PROFILES } from './plan/fio-jobs.js';
export { type PlanOptions, resolvePlanOptions } from './rules/plan-options.js';
export { FLAG_DEFINITIONS, type FlagDefinition } from './rules/flag-definitions.js';
export { assertDestructiveAllowed, type Plan } from './plan/plan.js';

// contract: the versioned JSON documents (envelopes) and their schemas
export { assessmentDocument, machineAssessmentDocument } from './contract/assessment.js';
export { type DocumentResult, type JsonDocument } from './contract/document.js';
export { parseWithoutCompiling } from './contract/zod-config.js';
export {
  bridgeDocument,
  cipherBenchmarkDocument,
  cleanupDocument,
  completionDocument,
  doctorDocument,
  DOCUMENTS,
  findDocument,
  fleetReportDocument,
  healthDocument,
  helpDocument,
  ioBenchmarkDocument,
  manDocument,
  schemaListDocument,
  uiDocument,
  versionDocument,
} from './contract/documents.js';
export { type Envelope, type ErrorBody, toErrorBody } from './contract/envelope.js';
export { planDocument } from './contract/plan-document.js';

// report: view models and HTML from the typed envelopes
export { renderHtmlReport } from './report/html-report.js';
export type { ChartRenderer } from './report/report-charts.js';
export {
  type RecommendationView,
  renderCommandsScript,
  renderPlanCommandsScript,
  type ReportView,
  type SectionView,
  type Tone,
  toReportView,
  toReportViewFromJson,
} from './report/report-view.js';
export { printableData } from './report/printable.js';
export { benchmarkFootprintIn } from './report/benchmark-footprint-view.js';

// use-cases: assess, collect, doctor, benchmarks: probes, analyses, plan and envelope in order
export { assess, chooseScratchDirectory, type AssessRequest } from './use-cases/assess.js';
export {
  type AssessmentJobs,
  createAssessmentJobs,
  type AssessProgress,
  type AssessSample,
  ioTestSample,
  type JobSnapshot,
  type WizardAssessRequest,
  wizardAssessRequestSchema,
} from './use-cases/assessment-jobs.js';
export { runCipherBenchmark } from './use-cases/cipher-benchmark.js';
export { formatExternalCalls, logExternalCalls } from './capture/call-log.js';
export { assessAll } from './use-cases/assess-all.js';
export { assessAllBundle, assessBundle, collect, collectAll } from './use-cases/collect.js';
export { type DeviceSummary, deviceSummarySchema } from './use-cases/device-list.js';
export { doctor, missingTool } from './use-cases/doctor.js';
export { healthFromSmartctlJson } from './use-cases/health-from-smartctl.js';
export { planFromAssessment, planTargetChoices } from './use-cases/plan-from-assessment.js';
export { listDisks } from './use-cases/list-disks.js';
export { createSavedAssessmentServices } from './use-cases/saved-assessments.js';
export { probeBenchmarkBackends } from './use-cases/benchmark-backends.js';
export {
  type BenchmarkFootprint,
  benchmarkFootprintSchema,
  type Capabilities,
  capabilitiesSchema,
  type PrivilegeStatus,
  type UiServices,
} from './use-cases/ui-services.js';

// added while merging: names the shells import
export {
  toCipherBenchmarkView,
  toHealthDocumentView,
  toIoBenchmarkView,
  toPlanDocumentView,
} from './report/document-views.js';
export { renderMachineHtmlReport, renderMachineTextReport } from './report/machine-report.js';
export {
  fitText,
  formatTextTable,
  renderDocumentText,
  renderTextReport,
  type TextRenderOptions,
  type TextStyle,
} from './report/text-report.js';

// added while merging: names the shells import
export { FLEET_METHODS, type FleetMethod } from './domain/fleet-report.js';
