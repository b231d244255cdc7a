import { describe, expect, it } from 'vitest';
import { firstTokenColor, requestTimeColor } from './latency';

describe('latency colours', () => {
  it('colours request time: < 101 s green, < 300 s orange, else red', () => {
    expect([0, 100, 100.9, 101, 299, 300, 1000].map(requestTimeColor)).toEqual([
      'green',
      'green',
      'green',
      'orange',
      'orange',
      'red',
      'red',
    ]);
  });

  it('colours first-token latency: < 3 s green, < 10 s orange, else red', () => {
    expect([0.4, 2.99, 3, 9.9, 10, 42].map(firstTokenColor)).toEqual([
      'green',
      'green',
      'orange',
      'orange',
      'red',
      'red',
    ]);
  });
});
