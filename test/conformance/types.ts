/** One conformance case: passed when there is no failure. */
export interface CaseResult {
  id: string;
  failure?: string | undefined;
}
