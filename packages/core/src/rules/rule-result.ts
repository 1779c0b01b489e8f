import type { Finding, Recommendation } from '../domain/recommendation.js';

/** What a rule returns: recommendations to follow and findings to know first. */
export interface RuleResult {
  readonly recommendations: readonly Recommendation[];
  readonly findings: readonly Finding[];
}

/** Concatenates rule results in order. */
export function mergeRuleResults(...results: readonly RuleResult[]): RuleResult {
  return {
    recommendations: results.flatMap((result) => result.recommendations),
    findings: results.flatMap((result) => result.findings),
  };
}
