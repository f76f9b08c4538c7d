import { describe, expect, it } from 'vitest';
import { callReceivedAt, callStartedText, formPriority, noteCallStart, priorityOptionLabel, startsCall } from './intake';

const T = Date.parse('2026-03-01T10:00:00.000Z');

describe('the form\'s priority', () => {
  it('follows the type as the server derives it until the operator picks one', () => {
    expect(formPriority('', '')).toBeNull();
    expect(formPriority('', 'Heart Attack')).toBe(1);
    expect(formPriority('', 'Stroke')).toBe(1);
    expect(formPriority('', 'Injury')).toBe(2);
    expect(formPriority('', 'Medical Emergency')).toBe(2);
    expect(formPriority('', 'Other')).toBe(3);
    expect(formPriority('4', 'Heart Attack')).toBe(4);
    expect(formPriority('2', '')).toBe(2);
  });

  it('ignores a value that is no priority', () => {
    expect(formPriority('7', 'Stroke')).toBe(1);
    expect(formPriority('x', 'Accident')).toBe(2);
  });

  it('names a priority by number and label', () => {
    expect(priorityOptionLabel({ priority: 1, label: 'Life-threatening' })).toBe('1 — Life-threatening');
  });
});

describe('the call\'s start', () => {
  it('starts on typing, not on moving through the form', () => {
    expect(startsCall('a')).toBe(true);
    expect(startsCall('Backspace')).toBe(true);
    expect(startsCall('Enter')).toBe(true);
    expect(startsCall('Tab')).toBe(false);
    expect(startsCall('Shift')).toBe(false);
    expect(startsCall('ArrowDown')).toBe(false);
  });

  it('keeps the first start', () => {
    expect(noteCallStart(null, T)).toBe(T);
    expect(noteCallStart(T, T + 5000)).toBe(T);
  });

  it('is sent as ISO, never in the future, never older than the server takes', () => {
    expect(callReceivedAt(null, T)).toBeNull();
    expect(callReceivedAt(T - 42_000, T)).toBe('2026-03-01T09:59:18.000Z');
    expect(callReceivedAt(T + 3000, T)).toBe('2026-03-01T10:00:00.000Z');
    const old = Date.parse(callReceivedAt(T - 2 * 3600_000, T)!);
    expect(T - old).toBeLessThan(3600_000);
    expect(T - old).toBeGreaterThan(3500_000);
  });

  it('reads as a clock', () => {
    expect(callStartedText(T - 42_000, T)).toBe('Call started 0:42 ago');
    expect(callStartedText(T - 125_500, T)).toBe('Call started 2:05 ago');
  });
});
