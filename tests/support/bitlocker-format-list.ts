/**
 * One volume of a real `Get-BitLockerVolume | Format-List` capture (fixtures/powershell) as encplan's Windows storage
 * pipeline writes it into its JSON (`BitLockerVolumes[]`, probes/windows/probe-windows-storage.ts): the properties the
 * pipeline selects, under the same names, their enum names as its `[string]` casts print them, and of each key
 * protector only its type. No value is changed; properties the pipeline does not select are left out.
 */
export function bitLockerVolumeOfFormatList(text: string): Record<string, unknown> {
  const fields = new Map(
    text
      .split('\n')
      .map((line) => /^(\w+)\s*: ?(.*)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => [match[1] ?? '', (match[2] ?? '').trim()] as const),
  );
  const protectors = (fields.get('KeyProtector') ?? '').replace(/[{}]/g, '');
  return {
    MountPoint: fields.get('MountPoint'),
    EncryptionMethod: fields.get('EncryptionMethod'),
    VolumeStatus: fields.get('VolumeStatus'),
    ProtectionStatus: fields.get('ProtectionStatus'),
    LockStatus: fields.get('LockStatus'),
    EncryptionPercentage: Number(fields.get('EncryptionPercentage')),
    KeyProtector: protectors === '' ? [] : protectors.split(', ').map((type) => ({ KeyProtectorType: type })),
  };
}
