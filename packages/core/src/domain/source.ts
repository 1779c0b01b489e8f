import { z } from 'zod';

/** Where a fact came from: the tool (or file) and the field, so every finding can cite it. */
export const factSourceSchema = z.object({
  /** A tool name ("smartctl") or a file path ("/sys/block/sda/queue/rotational"). */
  origin: z.string(),
  /** The field or attribute inside that output, e.g. "nvme_smart_health_information_log.percentage_used". */
  field: z.string().nullable(),
});
export type FactSource = z.infer<typeof factSourceSchema>;

/** Builds a {@link FactSource}. */
export function sourceOf(origin: string, field: string | null = null): FactSource {
  return { origin, field };
}
