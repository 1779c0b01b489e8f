import { contextBridge, ipcRenderer } from 'electron';
import type { WizardAssessRequest } from '@encplan/core';
import { BRIDGE_GLOBAL, channels, type EncplanBridge } from '../shared/bridge.js';

/**
 * Exposes exactly EncplanBridge as `window.encplan`, each method one invoke on its channel. ipcRenderer
 * itself is never exposed, so the page cannot reach other channels (architecture 2.7).
 */
const bridge: EncplanBridge = {
  listDevices: () => ipcRenderer.invoke(channels.listDevices),
  capabilities: () => ipcRenderer.invoke(channels.capabilities),
  benchmarkFootprint: (request: WizardAssessRequest) =>
    ipcRenderer.invoke(channels.benchmarkFootprint, request),
  startAssessment: (request: WizardAssessRequest) => ipcRenderer.invoke(channels.startAssessment, request),
  jobStatus: (jobId: string) => ipcRenderer.invoke(channels.jobStatus, jobId),
  cancel: (jobId: string) => ipcRenderer.invoke(channels.cancel, jobId),
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
