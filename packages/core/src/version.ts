/** encplan's version, printed in every envelope. Kept equal to the packages' version by a unit test. */
export const TOOL_VERSION = '0.1.0';
