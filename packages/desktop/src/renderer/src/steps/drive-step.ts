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
      ? 'loop device'
      : device.transport === 'virtio'
        ? 'virtual disk'
        : device.rotational
          ? 'hard disk'
          : 'solid-state';
  const fallbackName =
    device.transport === 'loop'
      ? 'Loop device'
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
      h(
        'span',
        { class: 'device-meta' },
        `${device.path} · ${formatBytes(device.sizeBytes)} · ${device.transport.toUpperCase()} ${kind}`,
      ),
      h(
        'span',
        { class: 'device-badges' },
        badge(HEALTH_TONE[device.healthVerdict], HEALTH_TEXT[device.healthVerdict]),
        device.isSystemDisk ? badge('attention', 'System disk') : null,
      ),
    ),
  );
}

/** Step 1: the drives, with model, size, transport, a health badge and the system disk marked. */
export function renderDriveStep(state: WizardState, actions: WizardActions): HTMLElement {
  const devices = state.devices;
  const body =
    devices === null
      ? [h('p', { role: 'status' }, 'Looking for drives…')]
      : devices.length === 0
        ? [h('p', {}, 'No drives found.')]
        : [
            h(
              'fieldset',
              { class: 'devices' },
              h('legend', {}, 'Drives on this machine'),
              h(
                'ul',
                { class: 'device-list' },
                devices.map((device, index) => deviceOption(device, index, state, actions)),
              ),
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
