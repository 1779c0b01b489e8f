import { formatBytes, type DeviceSummary, type Tone } from '@encplan/core';
import { h } from '../element-builder.js';
import type { WizardActions, WizardState } from '../wizard-state.js';
import { badge, stepFrame } from './step-frame.js';

const HEALTH_TONE: Readonly<Record<DeviceSummary['healthVerdict'], Tone>> = {
  healthy: 'good',
  warning: 'attention',
  failing: 'bad',
  unknown: 'unknown',
};
const HEALTH_TEXT: Readonly<Record<DeviceSummary['healthVerdict'], string>> = {
  healthy: 'Healthy',
  warning: 'Warning',
  failing: 'Failing',
  unknown: 'Health unknown',
};

/** How a connection is called on a drive's box or in GNOME Disks. */
const TRANSPORT_WORDS: Readonly<Record<DeviceSummary['transport'], string>> = {
  nvme: 'NVMe',
  sata: 'SATA',
  sas: 'SAS',
  usb: 'USB',
  mmc: 'SD/eMMC',
  virtio: 'virtual',
  loop: 'image',
  scsi: 'SCSI',
  ata: 'ATA',
  md: 'RAID',
  dm: 'mapped',
  unknown: '',
};

function deviceOption(
  device: DeviceSummary,
  index: number,
  state: WizardState,
  actions: WizardActions,
): HTMLElement {
  const id = `device-${String(index)}`;
  // The rotational flag of loop and virtio devices describes nothing real (see the assessment's `media`).
  const kind =
    device.transport === 'loop'
      ? 'disk image (loop device)'
      : device.transport === 'virtio'
        ? 'virtual disk'
        : `${TRANSPORT_WORDS[device.transport]} ${device.rotational ? 'hard disk' : 'solid-state drive'}`.trim();
  const fallbackName =
    device.transport === 'loop'
      ? 'Disk image'
      : device.transport === 'virtio'
        ? 'Virtual disk'
        : 'Unknown model';
  return h(
    'li',
    { class: state.selectedDevice === device.path ? 'device selected' : 'device' },
    h('input', {
      type: 'radio',
      name: 'device',
      id,
      value: device.path,
      checked: state.selectedDevice === device.path,
      onchange: () => {
        actions.selectDevice(device.path);
      },
    }),
    h(
      'label',
      { for: id },
      h('span', { class: 'device-model' }, device.model ?? fallbackName),
      h('span', { class: 'device-meta' }, `${device.path} · ${formatBytes(device.sizeBytes)} · ${kind}`),
      h(
        'span',
        { class: 'device-badges' },
        badge(HEALTH_TONE[device.healthVerdict], HEALTH_TEXT[device.healthVerdict]),
        device.isSystemDisk ? badge('attention', 'System disk') : null,
      ),
      device.savedFrom === undefined
        ? null
        : h('span', { class: 'device-source' }, `Saved: ${sourceInWords(device.savedFrom)}`),
    ),
  );
}

/** Loop devices (disk images) are not drives a person buys: listed after the real disks, folded away. */
function isImage(device: DeviceSummary): boolean {
  return device.transport === 'loop';
}

/** A date as people read it: "21 Nov 2026". */
function dayOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** Where a saved drive comes from: "virtio-disk.json, Debian GNU/Linux 12, AMD EPYC, 21 Nov 2026". */
function sourceInWords(saved: NonNullable<DeviceSummary['savedFrom']>): string {
  return [saved.file, saved.machine, dayOf(saved.collectedAt)].filter((part) => part !== null).join(', ');
}

/** The heading of the list: this machine, or the saved assessment(s) it shows. */
function listHeading(devices: readonly DeviceSummary[]): string {
  const sources = [
    ...new Set(
      devices.flatMap((device) => (device.savedFrom === undefined ? [] : [sourceInWords(device.savedFrom)])),
    ),
  ];
  if (sources.length === 0) {
    return 'Drives on this machine';
  }
  return sources.length === 1
    ? `From a saved assessment: ${sources[0] ?? ''}`
    : `From ${String(sources.length)} saved assessments (each drive names its file)`;
}

/** Step 1: the drives, with model, size, transport, a health badge and the system disk marked. */
export function renderDriveStep(state: WizardState, actions: WizardActions): HTMLElement {
  const devices = state.devices;
  // Real disks first, in lsblk's order; loop devices after them, in a group folded away.
  const disks = devices?.filter((device) => !isImage(device)) ?? [];
  const images = devices?.filter(isImage) ?? [];
  const option = (device: DeviceSummary): HTMLElement =>
    deviceOption(device, devices?.indexOf(device) ?? 0, state, actions);
  const imageGroup =
    images.length === 0
      ? null
      : h(
          'details',
          {
            class: 'device-group',
            // Open when it holds the chosen drive, or when there is nothing else to choose.
            open: disks.length === 0 || images.some((device) => device.path === state.selectedDevice),
          },
          h('summary', {}, `Loop devices (disk images): ${String(images.length)}`),
          h('ul', { class: 'device-list' }, images.map(option)),
        );
  const body =
    devices === null
      ? [h('p', { role: 'status' }, 'Looking for drives…')]
      : devices.length === 0
        ? [h('p', {}, 'No drives found.')]
        : [
            h(
              'fieldset',
              { class: 'devices' },
              h('legend', {}, listHeading(devices)),
              disks.length === 0 ? null : h('ul', { class: 'device-list' }, disks.map(option)),
              imageGroup,
            ),
          ];
  const privilege = state.capabilities?.privilege;
  const privilegeNote =
    privilege === undefined || privilege.available
      ? null
      : h(
          'p',
          { class: 'alert tone-attention' },
          h('strong', {}, 'Limited checks: '),
          privilege.reason ?? 'Administrator rights are not available.',
        );
  const refresh = h(
    'div',
    { class: 'controls' },
    h(
      'button',
      {
        type: 'button',
        id: 'refresh-devices',
        class: 'secondary',
        disabled: devices === null,
        onclick: () => {
          actions.refreshDevices();
        },
      },
      'Refresh the drive list',
    ),
    h('span', { class: 'hint' }, 'After plugging in, attaching or removing a drive.'),
  );
  return stepFrame(
    'Which drive do you want to encrypt?',
    'Pick a drive. encplan only reads from it; nothing is written or formatted.',
    [...body, refresh, privilegeNote],
    {
      next: () => {
        actions.assessFacts();
      },
      nextLabel: 'Check this drive',
      nextDisabled: state.selectedDevice === null,
    },
  );
}
