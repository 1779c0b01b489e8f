import type {
  AtaSecurityState,
  SecurityCapability,
  TrimCapability,
} from '../../domain/drive-capabilities.js';
import type { SmartUnavailable } from '../../domain/health.js';
import type {
  AtaAttribute,
  NvmeHealthLog,
  ScsiHealth,
  SmartFacts,
  Sourced,
} from '../../domain/smart-facts.js';
import { EncplanError } from '../../errors.js';
import {
  arrayAt,
  booleanAt,
  counterAt,
  numberAt,
  objectAt,
  objectsAt,
  parseJsonObject,
  stringAt,
  unrecognized,
  type JsonObject,
} from '../json-reader.js';
import { powerOnHoursFromAttribute, rawCountOf } from '../../domain/ata-attribute-formats.js';
import { decodeSmartctlExitStatus } from './exit-status.js';
import { withoutImplausibleValues, type ImplausibleValue } from './plausible-ranges.js';

const TOOL = 'smartctl';

/** smartctl's JSON, read into the tool-neutral facts plus the drive's TRIM and security capabilities. */
export interface SmartctlReport {
  readonly jsonFormatVersion: readonly [number, number];
  readonly facts: SmartFacts;
  readonly trim: TrimCapability | null;
  readonly security: SecurityCapability | null;
  /** Values their fields cannot hold, left out of `facts` (each becomes a DATA_INCONSISTENT warning). */
  readonly implausible: readonly ImplausibleValue[];
  /** Set when `smartctl.exit_status` and the process exit code disagree (both values kept). */
  readonly exitStatusMismatch: { readonly json: number; readonly process: number } | null;
}

/** json_format_version majors this parser understands: 0 (smartctl 6.7 pre-release) and 1 (7.0+). */
const KNOWN_FORMAT_MAJORS = new Set([0, 1]);

function sourced<T>(value: T | null, field: string): Sourced<T> | null {
  return value === null ? null : { value, field };
}

function readFormatVersion(document: JsonObject): readonly [number, number] {
  const version = document.json_format_version;
  if (!Array.isArray(version) || version.length < 2 || !version.every((part) => Number.isInteger(part))) {
    throw unrecognized(TOOL, 'json_format_version is missing; is this `smartctl --json` output?');
  }
  const [major, minor] = version as [number, number];
  if (!KNOWN_FORMAT_MAJORS.has(major)) {
    throw new EncplanError(
      'TOOL_OUTPUT_UNRECOGNIZED',
      `smartctl JSON format version ${major}.${minor} is not supported.`,
      {
        hint: 'encplan reads json_format_version 0.x and 1.x (smartctl 6.7 to 7.5); update encplan.',
        details: { tool: TOOL, jsonFormatVersion: [major, minor] },
      },
    );
  }
  return [major, minor];
}

function readNvmeLog(document: JsonObject): NvmeHealthLog | null {
  const prefix = 'nvme_smart_health_information_log';
  const log = objectAt(document, prefix);
  if (log === null) {
    return null;
  }
  const f = (key: string): string => `${prefix}.${key}`;
  return {
    criticalWarning: sourced(numberAt(log, 'critical_warning'), f('critical_warning')),
    temperatureCelsius: sourced(numberAt(log, 'temperature'), f('temperature')),
    availableSparePercent: sourced(numberAt(log, 'available_spare'), f('available_spare')),
    availableSpareThresholdPercent: sourced(
      numberAt(log, 'available_spare_threshold'),
      f('available_spare_threshold'),
    ),
    percentageUsed: sourced(numberAt(log, 'percentage_used'), f('percentage_used')),
    dataUnitsWritten: sourced(counterAt(log, 'data_units_written'), f('data_units_written')),
    powerOnHours: sourced(counterAt(log, 'power_on_hours'), f('power_on_hours')),
    controllerBusyMinutes: sourced(counterAt(log, 'controller_busy_time'), f('controller_busy_time')),
    unsafeShutdowns: sourced(counterAt(log, 'unsafe_shutdowns'), f('unsafe_shutdowns')),
    mediaErrors: sourced(counterAt(log, 'media_errors'), f('media_errors')),
    errorLogEntries: sourced(counterAt(log, 'num_err_log_entries'), f('num_err_log_entries')),
  };
}

function readAtaAttributes(document: JsonObject, modelFamily: string | null): AtaAttribute[] {
  const attributes: AtaAttribute[] = [];
  for (const row of objectsAt(objectAt(document, 'ata_smart_attributes'), 'table')) {
    const id = numberAt(row, 'id');
    if (id === null || !Number.isInteger(id) || id < 1 || id > 255) {
      continue;
    }
    const raw = objectAt(row, 'raw');
    const rawCounter = counterAt(raw, 'value');
    const rawString = stringAt(raw, 'string');
    const count = rawCountOf(id, rawCounter?.exact ?? null, rawString, modelFamily);
    attributes.push({
      id,
      name: stringAt(row, 'name') ?? 'Unknown_Attribute',
      value: numberAt(row, 'value'),
      worst: numberAt(row, 'worst'),
      threshold: numberAt(row, 'thresh'),
      whenFailed: stringAt(row, 'when_failed') ?? '',
      prefailure: booleanAt(objectAt(row, 'flags'), 'prefailure') ?? false,
      raw: rawCounter,
      rawString,
      count: count?.count ?? null,
      countReading: count?.reading ?? null,
    });
  }
  return attributes;
}

/** Power-on hours from attribute 9 when smartctl printed no `power_on_time` (smartctl 7.0 on some drives). */
function powerOnHoursFromAttributes(attributes: readonly AtaAttribute[]): Sourced<number> | null {
  const attribute = attributes.find((candidate) => candidate.id === 9);
  const count = attribute?.count ?? null;
  if (attribute === undefined || count === null) {
    return null;
  }
  const hours = powerOnHoursFromAttribute(attribute.name, count);
  return hours === null ? null : { value: hours, field: `ata_smart_attributes.table[id=9].raw.string` };
}

function readAtaPercentageUsed(document: JsonObject): Sourced<number> | null {
  for (const page of objectsAt(objectAt(document, 'ata_device_statistics'), 'pages')) {
    for (const entry of objectsAt(page, 'table')) {
      if (stringAt(entry, 'name') === 'Percentage Used Endurance Indicator') {
        const valid = booleanAt(objectAt(entry, 'flags'), 'valid');
        const value = numberAt(entry, 'value');
        if (value !== null && valid !== false) {
          return { value, field: 'ata_device_statistics.pages[7].Percentage Used Endurance Indicator' };
        }
      }
    }
  }
  return null;
}

function readScsi(document: JsonObject): ScsiHealth {
  const errorLog = objectAt(document, 'scsi_error_counter_log');
  const uncorrected: Sourced<number>[] = [];
  for (const direction of ['read', 'write', 'verify']) {
    const value = numberAt(objectAt(errorLog, direction), 'total_uncorrected_errors');
    if (value !== null) {
      uncorrected.push({ value, field: `scsi_error_counter_log.${direction}.total_uncorrected_errors` });
    }
  }
  // smartctl prints "gigabytes_processed" as a decimal string of 10^9 bytes (scsiprint.cpp, "%.3f").
  const processed = stringAt(objectAt(errorLog, 'write'), 'gigabytes_processed');
  const decimal = processed === null ? null : /^(\d{1,15})(?:\.(\d{1,9}))?$/.exec(processed);
  const bytesWritten =
    decimal === null || decimal[1] === undefined
      ? null
      : BigInt(decimal[1]) * 1_000_000_000n + BigInt((decimal[2] ?? '').padEnd(9, '0'));
  const provisioning = objectAt(document, 'scsi_lb_provisioning');
  const lbpme = numberAt(objectAt(provisioning, 'management_enabled'), 'value');
  const lbprz = numberAt(objectAt(provisioning, 'read_zeros'), 'value');
  return {
    grownDefects: sourced(numberAt(document, 'scsi_grown_defect_list'), 'scsi_grown_defect_list'),
    uncorrectedErrors: uncorrected,
    percentageUsed: sourced(
      numberAt(document, 'scsi_percentage_used_endurance_indicator'),
      'scsi_percentage_used_endurance_indicator',
    ),
    bytesWritten: sourced(bytesWritten, 'scsi_error_counter_log.write.gigabytes_processed'),
    unmapSupported: lbpme === null ? null : lbpme === 1,
    readsZerosAfterUnmap: lbprz === null ? null : lbprz === 1,
  };
}

function protocolOf(document: JsonObject): SmartFacts['protocol'] {
  const protocol = stringAt(objectAt(document, 'device'), 'protocol');
  switch (protocol) {
    case 'NVMe':
      return 'nvme';
    case 'ATA':
      return 'ata';
    case 'SCSI':
      return 'scsi';
    default:
      return 'unknown';
  }
}

function modelOf(document: JsonObject): string | null {
  // smartctl 7.3 renamed the SCSI inquiry fields to scsi_vendor/scsi_product/scsi_model_name (6.7 and 7.0
  // printed vendor/product/model_name; fixtures sas-hdd-seagate-st1200mm0088-v6.7 vs sas-hdd-hgst-v7.3).
  const model = stringAt(document, 'model_name') ?? stringAt(document, 'scsi_model_name');
  if (model !== null) {
    return model.trim();
  }
  const vendor = stringAt(document, 'vendor') ?? stringAt(document, 'scsi_vendor');
  const product = stringAt(document, 'product') ?? stringAt(document, 'scsi_product');
  return product === null
    ? null
    : [vendor, product]
        .filter((part) => part !== null)
        .join(' ')
        .trim();
}

function hasSmartData(facts: Omit<SmartFacts, 'unavailable'>): boolean {
  return (
    facts.selfAssessmentPassed !== null ||
    facts.nvme !== null ||
    facts.ataAttributes.length > 0 ||
    facts.enduranceUsedPercent !== null ||
    (facts.scsi !== null && (facts.scsi.grownDefects !== null || facts.scsi.uncorrectedErrors.length > 0))
  );
}

function unavailableReason(
  facts: Omit<SmartFacts, 'unavailable'>,
  smartSupport: JsonObject | null,
): SmartUnavailable | null {
  const text = facts.messages.map((message) => message.text).join(' ');
  const status = facts.exitStatus;
  if (status !== null && !status.dataUsable) {
    if (/permission denied|Error=5\b|Operation not permitted/i.test(text)) {
      return {
        reason: 'permission-denied',
        detail: text || 'smartctl could not open the device: permission denied.',
      };
    }
    if (/STANDBY|SLEEP/i.test(text)) {
      return { reason: 'device-in-standby', detail: text };
    }
    if (/Unknown USB bridge|unsupported USB/i.test(text)) {
      return { reason: 'unsupported-bridge', detail: text };
    }
    if (status.problems.includes('command-line-invalid')) {
      return {
        reason: 'device-type-unknown',
        detail: text || 'smartctl could not tell the device type (exit status bit 0).',
      };
    }
    return {
      reason: 'open-failed',
      detail: text || 'smartctl could not open the device (exit status bit 1).',
    };
  }
  if (hasSmartData(facts)) {
    return null;
  }
  if (booleanAt(smartSupport, 'available') === false) {
    return { reason: 'smart-not-supported', detail: 'The device says it does not support SMART.' };
  }
  // A hardware RAID volume answers INQUIRY with its own name and has no SMART of its own (fixture
  // scsi-intel-raid1-volume-windows-exit4-v7.0: "Intel Raid 1 Volume", exit status 4, no SMART objects).
  if (
    /raid|volume/i.test(facts.model ?? '') ||
    /megaraid|cciss|areca|3ware|aacraid/i.test(facts.deviceType ?? '')
  ) {
    return {
      reason: 'raid-volume',
      detail: `"${facts.model ?? 'device'}" looks like a RAID volume; query its member disks (smartctl -d megaraid,N / cciss,N).`,
    };
  }
  return { reason: 'no-smart-data', detail: text || 'smartctl printed no SMART data for this device.' };
}

function readTrim(document: JsonObject, facts: Omit<SmartFacts, 'unavailable'>): TrimCapability | null {
  // smartctl 7.3+ prints ATA IDENTIFY words 169/69 as `trim` (ATA/ATAPI ACS IDENTIFY words 69 and 169 (hdparm -I, smartmontools ataprint.cpp); NVMe Base Specification ONCS, DLFEAT (nvme-cli nvme-print-json.c)); older versions do not.
  const trim = objectAt(document, 'trim');
  if (trim !== null) {
    return {
      supported: booleanAt(trim, 'supported'),
      deterministic: booleanAt(trim, 'deterministic'),
      zeroed: booleanAt(trim, 'zeroed'),
      mechanism: 'ata-dsm-trim',
      origin: TOOL,
      field: 'trim',
    };
  }
  const nvmCommands = objectAt(document, 'nvme_optional_nvm_commands');
  if (nvmCommands !== null) {
    const value = numberAt(nvmCommands, 'value');
    // ONCS bit 2 = Dataset Management (deallocate) (NVMe Base Spec; ATA/ATAPI ACS IDENTIFY words 69 and 169 (hdparm -I, smartmontools ataprint.cpp); NVMe Base Specification ONCS, DLFEAT (nvme-cli nvme-print-json.c)).
    const supported =
      booleanAt(nvmCommands, 'dataset_management') ?? (value === null ? null : (value & 0b100) !== 0);
    return {
      supported,
      deterministic: null,
      zeroed: null,
      mechanism: 'nvme-deallocate',
      origin: TOOL,
      field: 'nvme_optional_nvm_commands',
    };
  }
  if (facts.scsi !== null && facts.scsi.unmapSupported !== null) {
    return {
      supported: facts.scsi.unmapSupported,
      deterministic: facts.scsi.readsZerosAfterUnmap,
      zeroed: facts.scsi.readsZerosAfterUnmap,
      mechanism: 'scsi-unmap',
      origin: TOOL,
      field: 'scsi_lb_provisioning',
    };
  }
  return null;
}

function readAtaSecurity(document: JsonObject): AtaSecurityState | null {
  const security = objectAt(document, 'ata_security');
  if (security === null) {
    return null;
  }
  return {
    // smartctl prints ata_security only when the feature set is supported (ataprint.cpp).
    supported: true,
    enabled: booleanAt(security, 'enabled'),
    locked: booleanAt(security, 'locked'),
    frozen: booleanAt(security, 'frozen'),
    enhancedErase: null,
    origin: TOOL,
    field: 'ata_security',
  };
}

function readSecurity(document: JsonObject): SecurityCapability | null {
  const admin = objectAt(document, 'nvme_optional_admin_commands');
  const ataSecurity = readAtaSecurity(document);
  if (admin === null && ataSecurity === null) {
    return null;
  }
  const oacs = numberAt(admin, 'value');
  // OACS bit 0 = Security Send/Receive, bit 3 = Namespace Management (sedutil-cli --scan; TCG Storage Opal SSC Level 0 Discovery; NVMe OACS bit 0, AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create).
  const bit = (mask: number): boolean | null => (oacs === null ? null : (oacs & mask) !== 0);
  return {
    nvmeSecuritySendReceive: admin === null ? null : (booleanAt(admin, 'security_send_receive') ?? bit(0b1)),
    nvmeNamespaceManagement:
      admin === null ? null : (booleanAt(admin, 'namespace_management') ?? bit(0b1000)),
    ataTrustedComputing: null,
    ataSecurity,
    origin: TOOL,
  };
}

/**
 * `smartctl --scan --json` prints a `devices` list and no `device` object (fixture
 * smartctl-scan/linux-three-devices-v7.4): no SMART data, so the answer is the list and the command to run per
 * device, as a TOOL_OUTPUT_UNRECOGNIZED error that names them.
 */
function rejectScanOutput(document: JsonObject): void {
  if (objectAt(document, 'device') !== null || !Array.isArray(document.devices)) {
    return;
  }
  const devices = objectsAt(document, 'devices').map((entry) => ({
    name: stringAt(entry, 'name') ?? '?',
    type: stringAt(entry, 'type'),
    protocol: stringAt(entry, 'protocol'),
  }));
  const listed = devices
    .map((device) => `${device.name}${device.type === null ? '' : ` (${device.type})`}`)
    .join(', ');
  const commands = devices
    .map((device) => {
      const file = `${device.name.split('/').pop() ?? 'device'}.json`;
      const type = device.type === null ? '' : ` -d ${device.type}`;
      return `smartctl --json=v -x${type} ${device.name} > ${file}; encplan health ${file}`;
    })
    .join('\n');
  throw new EncplanError(
    'TOOL_OUTPUT_UNRECOGNIZED',
    `This is a \`smartctl --scan\` output: it lists ${devices.length} device${devices.length === 1 ? '' : 's'}${devices.length === 0 ? '' : ` (${listed})`} and holds no SMART data.`,
    {
      hint: `Run smartctl on each device and \`encplan health\` on each output:\n${commands}`,
      details: { tool: TOOL, scan: true, devices },
    },
  );
}

/**
 * Parses `smartctl --json[=v]` output (smartctl 6.7 to 7.5). `processExitCode` is cross-checked with
 * `smartctl.exit_status`. Throws TOOL_OUTPUT_UNRECOGNIZED for non-JSON, a missing or unknown-major
 * json_format_version; a device without SMART data is not an error but `facts.unavailable`.
 */
export function parseSmartctlJson(text: string, processExitCode: number | null = null): SmartctlReport {
  const parsed = parseJsonObject(TOOL, text);
  const jsonFormatVersion = readFormatVersion(parsed);
  rejectScanOutput(parsed);
  const { document, implausible } = withoutImplausibleValues(parsed);
  const smartctl = objectAt(document, 'smartctl');
  const jsonExit = numberAt(smartctl, 'exit_status');
  const exitValue = jsonExit ?? processExitCode;
  const version = arrayAt(smartctl, 'version').filter((part): part is number => typeof part === 'number');
  const messages = objectsAt(smartctl, 'messages').map((message) => ({
    text: stringAt(message, 'string') ?? '',
    severity: stringAt(message, 'severity') ?? 'information',
  }));
  const device = objectAt(document, 'device');
  const smartStatus = objectAt(document, 'smart_status');
  const passed = booleanAt(smartStatus, 'passed');
  const rotation = numberAt(document, 'rotation_rate');
  const endurance = numberAt(objectAt(document, 'endurance_used'), 'current_percent');
  const spare = objectAt(document, 'spare_available');
  const spareCurrent = numberAt(spare, 'current_percent');
  const protocol = protocolOf(document);
  const modelFamily = stringAt(document, 'model_family');
  const ataAttributes = readAtaAttributes(document, modelFamily);
  const temperature = numberAt(objectAt(document, 'temperature'), 'current');
  const partial: Omit<SmartFacts, 'unavailable'> = {
    tool: TOOL,
    toolVersion: version.length > 0 ? version.join('.') : null,
    protocol,
    deviceType: stringAt(device, 'type'),
    model: modelOf(document),
    rotationRateRpm: rotation,
    exitStatus: exitValue === null ? null : decodeSmartctlExitStatus(exitValue),
    messages,
    selfAssessmentPassed: sourced(passed, 'smart_status.passed'),
    nvme: readNvmeLog(document),
    ataAttributes,
    ataPercentageUsed: readAtaPercentageUsed(document),
    enduranceUsedPercent: sourced(endurance, 'endurance_used.current_percent'),
    spareAvailable:
      spareCurrent === null
        ? null
        : {
            currentPercent: { value: spareCurrent, field: 'spare_available.current_percent' },
            thresholdPercent: numberAt(spare, 'threshold_percent'),
          },
    scsi: protocol === 'scsi' ? readScsi(document) : null,
    powerOnHours:
      sourced(numberAt(objectAt(document, 'power_on_time'), 'hours'), 'power_on_time.hours') ??
      powerOnHoursFromAttributes(ataAttributes),
    // 0 °C means "no sensor" (fixtures scsi-intel-raid1-volume, sata-ssd-crucial-m4: 194 raw 0), not a reading.
    temperatureCelsius:
      temperature === null || temperature === 0 ? null : { value: temperature, field: 'temperature.current' },
    logicalBlockSizeBytes: numberAt(document, 'logical_block_size'),
    userCapacityBytes: numberAt(objectAt(document, 'user_capacity'), 'bytes'),
    inDriveDatabase: booleanAt(document, 'in_smartctl_database'),
    modelFamily,
  };
  const facts: SmartFacts = {
    ...partial,
    unavailable: unavailableReason(partial, objectAt(document, 'smart_support')),
    implausibleFields: implausible.map((value) => value.field),
  };
  return {
    jsonFormatVersion,
    implausible,
    facts,
    trim: readTrim(document, partial),
    security: readSecurity(document),
    exitStatusMismatch:
      jsonExit !== null && processExitCode !== null && (jsonExit & 0xff) !== (processExitCode & 0xff)
        ? { json: jsonExit, process: processExitCode }
        : null,
  };
}
