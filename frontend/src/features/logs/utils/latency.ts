/** Request time under 101 s green, under 300 s orange, else red. */
export function requestTimeColor(seconds: number): 'green' | 'orange' | 'red' {
  if (seconds < 101) return 'green';
  if (seconds < 300) return 'orange';
  return 'red';
}

/** First-token latency under 3 s green, under 10 s orange, else red. */
export function firstTokenColor(seconds: number): 'green' | 'orange' | 'red' {
  if (seconds < 3) return 'green';
  if (seconds < 10) return 'orange';
  return 'red';
}
