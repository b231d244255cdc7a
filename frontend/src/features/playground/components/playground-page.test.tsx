import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubClipboard } from '@/test/clipboard';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { PlaygroundPage } from './playground-page';

const sse = (events: unknown[]) =>
  new Response(
    events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join(''),
    { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
  );
const delta = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });

function setup(reply: () => Response) {
  const api = mockApi({
    'GET /api/user/models': () =>
      ok(['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small', 'dall-e-3', 'whisper-1']),
    'GET /api/user/self/groups': () =>
      ok({ default: { ratio: 1, desc: '默认分组' }, vip: { ratio: 1, desc: 'vip分组' } }),
    'POST /pg/chat/completions': reply,
  });
  renderWithProviders(<PlaygroundPage />, { route: '/playground', user: ordinaryUser });
  return api;
}

async function ask(text: string) {
  const user = userEvent.setup();
  await waitFor(() => expect(screen.getByTestId('playground-send')).toBeInTheDocument());
  await user.type(screen.getByTestId('playground-input'), text);
  await waitFor(() => expect(screen.getByTestId('playground-send')).toBeEnabled());
  await user.click(screen.getByTestId('playground-send'));
  return user;
}

describe('playground', { timeout: 20_000 }, () => {
  it('streams a reply: gpt-4o-mini by default, no max_tokens at 0', async () => {
    const { calls } = setup(() => sse([delta('Hello'), delta(', world'), '[DONE]']));
    await ask('hi there');
    const reply = await screen.findByTestId('assistant-message');
    await waitFor(() => expect(reply).toHaveTextContent('Hello, world'));
    await waitFor(() => expect(reply).toHaveAttribute('data-status', 'complete'));
    const call = calls.find((c) => c.path === '/pg/chat/completions')!;
    expect(call.body).toEqual({
      messages: [{ role: 'user', content: 'hi there' }],
      stream: true,
      model: 'gpt-4o-mini',
      group: 'default',
      temperature: 0.7,
    });
    expect(call.headers['New-Api-User']).toBe(String(ordinaryUser.id));
  });

  it('ends on an empty choices list and sends the history next time; clear empties it', async () => {
    const { calls } = setup(() =>
      sse([delta('One'), { choices: [], usage: { prompt_tokens: 1 } }, delta('ignored')]),
    );
    const user = await ask('first');
    await waitFor(() =>
      expect(screen.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete'),
    );
    expect(screen.getByTestId('assistant-message')).toHaveTextContent(/^One$/);
    await user.type(screen.getByTestId('playground-input'), 'second{Enter}');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/pg/chat/completions')).toHaveLength(2),
    );
    const second = calls.filter((c) => c.path === '/pg/chat/completions')[1]!;
    expect((second.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'One' },
      { role: 'user', content: 'second' },
    ]);
    await user.click(screen.getByTestId('playground-clear'));
    await waitFor(() => expect(screen.queryByTestId('assistant-message')).not.toBeInTheDocument());
  });

  it('appends an SSE error to the reply and marks it error', async () => {
    setup(() => sse([delta('Partial'), { error: { message: 'upstream broke', type: 'x' } }]));
    await ask('hi');
    const reply = await screen.findByTestId('assistant-message');
    await waitFor(() => expect(reply).toHaveAttribute('data-status', 'error'));
    expect(reply).toHaveTextContent('Partial');
    expect(reply).toHaveTextContent('upstream broke');
  });

  it('shows an HTTP error body as its message, with the wallet when the balance is out', async () => {
    setup(
      () =>
        new Response(
          JSON.stringify({
            error: {
              message: '用户额度不足，剩余额度：$0.00',
              type: 'insufficient_quota',
              code: 'insufficient_user_quota',
            },
          }),
          { status: 403, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    await ask('hi');
    const reply = await screen.findByTestId('assistant-message');
    await waitFor(() => expect(reply).toHaveAttribute('data-status', 'error'));
    expect(within(reply).getByTestId('reply-error')).toHaveTextContent(
      /^用户额度不足，剩余额度：\$0\.00/,
    );
    expect(reply).not.toHaveTextContent('{');
    expect(within(reply).getByRole('link', { name: '余额不足，去钱包充值' })).toHaveAttribute(
      'href',
      '/topup',
    );
  });

  it('renders Markdown and code blocks, and shows raw HTML as text', async () => {
    setup(() =>
      sse([
        delta('**bold** <img src=x onerror="alert(1)">\n\n```js\nconst a = 1;\n```\n'),
        delta('[bad](javascript:alert(1))'),
        '[DONE]',
      ]),
    );
    await ask('code please');
    const reply = await screen.findByTestId('assistant-message');
    await waitFor(() => expect(reply).toHaveAttribute('data-status', 'complete'));
    expect(reply.querySelector('strong')).toHaveTextContent('bold');
    expect(reply.querySelector('pre code.language-js')).toHaveTextContent('const a = 1;');
    expect(reply.querySelector('img')).toBeNull();
    expect(reply).toHaveTextContent('<img src=x onerror="alert(1)">');
    expect(within(reply).getByRole('link', { name: 'bad' })).toHaveAttribute('href', '#');
  });

  it('copies a reply and regenerates it from the same question', async () => {
    let answer = 0;
    const { calls } = setup(() => sse([delta(`Answer ${++answer}`), '[DONE]']));
    const user = await ask('question');
    // After userEvent.setup(), which puts its own clipboard in place.
    const { written } = stubClipboard();
    await waitFor(() =>
      expect(screen.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete'),
    );
    await user.click(screen.getByRole('button', { name: '复制回复' }));
    await waitFor(() => expect(written).toEqual(['Answer 1']));
    await user.click(screen.getByRole('button', { name: '重新生成' }));
    await waitFor(() =>
      expect(screen.getByTestId('assistant-message')).toHaveTextContent('Answer 2'),
    );
    expect(screen.getAllByTestId('assistant-message')).toHaveLength(1);
    const sent = calls.filter((c) => c.path === '/pg/chat/completions');
    expect(sent).toHaveLength(2);
    expect((sent[1]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'question' },
    ]);
  });
});
