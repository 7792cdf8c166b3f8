/**
 * Stops calls to a failing dependency for a while: after `threshold` failures in a row the circuit
 * opens for `openMs`; then one trial call goes through, which closes it on success or opens it again.
 * `onChange` hears each opening and closing once, not each failure.
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  private tripped = false;
  private trialRunning = false;

  constructor(
    private readonly threshold: number,
    private readonly openMs: number,
    private readonly onChange: (open: boolean) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get open(): boolean {
    return this.tripped;
  }

  /** Whether a call may go ahead now (while open, only the one trial after the pause). */
  allows(): boolean {
    if (!this.tripped) return true;
    if (this.trialRunning || this.now() < this.openUntil) return false;
    this.trialRunning = true;
    return true;
  }

  succeeded(): void {
    this.trialRunning = false;
    this.failures = 0;
    if (!this.tripped) return;
    this.tripped = false;
    this.onChange(false);
  }

  failed(): void {
    this.trialRunning = false;
    this.failures++;
    if (!this.tripped && this.failures < this.threshold) return;
    this.openUntil = this.now() + this.openMs;
    if (this.tripped) return;
    this.tripped = true;
    this.onChange(true);
  }
}
