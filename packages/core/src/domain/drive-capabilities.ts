/** What one tool told us about the drive's TRIM and security features (input to assessTrim / assessSed). */
export interface TrimCapability {
  /** ATA DSM TRIM, NVMe Dataset Management, SCSI UNMAP: can the drive deallocate blocks at all. */
  readonly supported: boolean | null;
  /** ATA IDENTIFY word 69 bit 14 (DRAT), or NVMe DLFEAT bits 2:0 ≠ 0. */
  readonly deterministic: boolean | null;
  /** ATA IDENTIFY word 69 bit 5 (RZAT), NVMe DLFEAT = 1, SCSI LBPRZ. */
  readonly zeroed: boolean | null;
  readonly mechanism: 'ata-dsm-trim' | 'nvme-deallocate' | 'scsi-unmap';
  readonly origin: string;
  readonly field: string;
}

/** The ATA Security feature set, as hdparm -I or smartctl's `ata_security` print it. */
export interface AtaSecurityState {
  readonly supported: boolean | null;
  readonly enabled: boolean | null;
  readonly locked: boolean | null;
  readonly frozen: boolean | null;
  readonly enhancedErase: boolean | null;
  readonly origin: string;
  readonly field: string;
}

/** Security-related capabilities, for the SED section. */
export interface SecurityCapability {
  /** NVMe OACS bit 0: Security Send/Receive (the transport Opal uses over NVMe). */
  readonly nvmeSecuritySendReceive: boolean | null;
  /** NVMe OACS bit 3: Namespace Management (needed to resize namespaces for spare area). */
  readonly nvmeNamespaceManagement: boolean | null;
  /** ATA IDENTIFY word 48 "Trusted Computing" feature (hdparm "Trusted Computing feature set"). */
  readonly ataTrustedComputing: boolean | null;
  readonly ataSecurity: AtaSecurityState | null;
  readonly origin: string;
}
