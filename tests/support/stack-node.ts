import type { StackNode } from '@encplan/core';

/** A StackNode for rule tests over hand-built stacks: defaults for everything not given. */
export function stackNode(
  kernelName: string,
  type: StackNode['type'],
  extra: Partial<StackNode> = {},
): StackNode {
  return {
    kernelName,
    path: `/dev/${kernelName}`,
    type,
    deviceNumber: `1:${kernelName.length}`,
    sizeBytes: 1,
    mapperName: null,
    dmUuid: null,
    filesystem: null,
    mountpoints: [],
    readOnly: false,
    discard: null,
    backingFile: null,
    children: [],
    ...extra,
  };
}

/** A filesystem signature for hand-built stacks: nothing known but its type, unless given. */
export function filesystemOf(
  type: string,
  extra: Partial<NonNullable<StackNode['filesystem']>> = {},
): NonNullable<StackNode['filesystem']> {
  return { type, version: null, label: null, uuid: null, availableBytes: null, usedPercent: null, ...extra };
}
