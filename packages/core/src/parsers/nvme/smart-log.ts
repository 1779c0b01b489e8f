import type { NvmeHealthLog, SmartFacts, Sourced } from '../../domain/smart-facts.js';
import { counterAt, numberAt, objectAt, parseJsonObject, unrecognized } from '../json-reader.js';

const TOOL = 'nvme';

/** NVMe reports temperatures in Kelvin (NVMe Base Spec, SMART log bytes 2:1); 273 K = 0 °C as nvme-cli rounds. */
const KELVIN_OFFSET = 273;

function field<T>(value: T | null, key: string): Sourced<T> | null {
  return value === null ? null : { value, field: key };
}

/**
 * Parses `nvme smart-log -o json` (nvme-cli 2.3: critical_warning is an integer; 2.11: an object with `value`
 * and bit fields) into tool-neutral SMART facts. Temperatures are converted from Kelvin. Throws
 * TOOL_OUTPUT_UNRECOGNIZED when the document is not a SMART log.
 */
export function parseNvmeSmartLog(text: string): SmartFacts {
  const document = parseJsonObject(TOOL, text);
  const criticalWarning =
    numberAt(document, 'critical_warning') ?? numberAt(objectAt(document, 'critical_warning'), 'value');
  const percentUsed = numberAt(document, 'percent_used') ?? numberAt(document, 'percentage_used');
  if (criticalWarning === null || percentUsed === null) {
    throw unrecognized(
      TOOL,
      'not an `nvme smart-log -o json` document (critical_warning / percent_used missing)',
    );
  }
  const kelvin = numberAt(document, 'temperature');
  const nvme: NvmeHealthLog = {
    criticalWarning: field(
      criticalWarning,
      typeof document.critical_warning === 'number' ? 'critical_warning' : 'critical_warning.value',
    ),
    temperatureCelsius: field(kelvin === null || kelvin === 0 ? null : kelvin - KELVIN_OFFSET, 'temperature'),
    availableSparePercent: field(numberAt(document, 'avail_spare'), 'avail_spare'),
    availableSpareThresholdPercent: field(numberAt(document, 'spare_thresh'), 'spare_thresh'),
    percentageUsed: field(percentUsed, 'percent_used'),
    dataUnitsWritten: field(counterAt(document, 'data_units_written'), 'data_units_written'),
    powerOnHours: field(counterAt(document, 'power_on_hours'), 'power_on_hours'),
    controllerBusyMinutes: field(counterAt(document, 'controller_busy_time'), 'controller_busy_time'),
    unsafeShutdowns: field(counterAt(document, 'unsafe_shutdowns'), 'unsafe_shutdowns'),
    mediaErrors: field(counterAt(document, 'media_errors'), 'media_errors'),
    errorLogEntries: field(counterAt(document, 'num_err_log_entries'), 'num_err_log_entries'),
  };
  return {
    tool: 'nvme-cli',
    toolVersion: null,
    protocol: 'nvme',
    deviceType: null,
    model: null,
    rotationRateRpm: 0,
    exitStatus: null,
    unavailable: null,
    messages: [],
    // The overall NVMe self-assessment is "no critical warning" (smartctl prints the same as smart_status).
    selfAssessmentPassed: {
      value: criticalWarning === 0,
      field: nvme.criticalWarning?.field ?? 'critical_warning',
    },
    nvme,
    ataAttributes: [],
    ataPercentageUsed: null,
    enduranceUsedPercent: null,
    spareAvailable: null,
    scsi: null,
    powerOnHours: null,
    temperatureCelsius: null,
    logicalBlockSizeBytes: null,
    userCapacityBytes: null,
    inDriveDatabase: null,
  };
}
