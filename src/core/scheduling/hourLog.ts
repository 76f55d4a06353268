import { HOUR_MS } from '../util/month';

/** Requests of the last hour: a queue with its running total, pruned as time moves on. */
export class HourLog {
  private list: Array<[number, number]> = [];
  private head = 0;
  private total = 0;

  add(at: number, requests: number): void {
    this.list.push([at, requests]);
    this.total += requests;
  }

  sum(now: number): number {
    this.prune(now);
    return this.total;
  }

  /** The last hour's entries, oldest first. */
  *entries(now: number): Generator<[number, number]> {
    this.prune(now);
    for (let i = this.head; i < this.list.length; i++) yield this.list[i] as [number, number];
  }

  private prune(now: number): void {
    while (this.head < this.list.length && (this.list[this.head] as [number, number])[0] <= now - HOUR_MS) {
      this.total -= (this.list[this.head] as [number, number])[1];
      this.head++;
    }
    if (this.head > 1_000 && this.head * 2 > this.list.length) {
      this.list = this.list.slice(this.head);
      this.head = 0;
    }
  }
}
