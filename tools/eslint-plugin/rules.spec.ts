import path from 'node:path';
import { RuleTester } from 'eslint';
import { createTollgatePlugin } from './index.cjs';

// A made-up repository root: the rules only look at paths, never at the files themselves.
const root = path.resolve('/repo');
const plugin = createTollgatePlugin(root);
const rule = (name: string) => plugin.rules![name] as Parameters<RuleTester['run']>[1];
const file = (relative: string) => path.join(root, relative);

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('no-relative-cross-package', rule('no-relative-cross-package'), {
  valid: [
    { code: "import { x } from './sibling';", filename: file('apps/gateway/src/users/a.ts') },
    { code: "import { x } from '../shared/y';", filename: file('apps/gateway/src/users/a.ts') },
    { code: "import { x } from '@tollgate/domain';", filename: file('apps/gateway/src/a.ts') },
    { code: "import { x } from '../../b';", filename: file('libs/domain/src/user/a.ts') },
    // Files outside any package (tests, tools) are not this rule's business.
    { code: "import { x } from '../apps/gateway/src/a';", filename: file('test/e2e/a.ts') },
  ],
  invalid: [
    {
      code: "import { x } from '../../../../libs/domain/src';",
      filename: file('apps/gateway/src/users/a.ts'),
      errors: [{ messageId: 'leaves', data: { pkg: 'apps/gateway' } }],
    },
    {
      code: "export * from '../../contracts/src';",
      filename: file('libs/domain/src/a.ts'),
      errors: [{ messageId: 'leaves', data: { pkg: 'libs/domain' } }],
    },
    {
      code: "const m = import('../../apps/gateway/src/main');",
      filename: file('frontend/src/main.ts'),
      errors: [{ messageId: 'leaves', data: { pkg: 'frontend' } }],
    },
  ],
});

tester.run('no-feature-internals', rule('no-feature-internals'), {
  valid: [
    {
      code: "import { useTokens } from '../tokens/api/tokens';",
      filename: file('frontend/src/features/users/components/a.tsx'),
    },
    {
      code: "import { Table } from '@/components/table';",
      filename: file('frontend/src/features/users/components/a.tsx'),
    },
    {
      code: "import { Row } from '../hooks/use-row';",
      filename: file('frontend/src/features/users/components/a.tsx'),
    },
    {
      code: "import { tokens } from '@/features/tokens';",
      filename: file('frontend/src/features/users/a.ts'),
    },
    // Outside a feature folder the rule does not apply.
    {
      code: "import { x } from '@/features/tokens/hooks/use-x';",
      filename: file('frontend/src/app/routes.tsx'),
    },
  ],
  invalid: [
    {
      code: "import { x } from '../../tokens/components/token-table';",
      filename: file('frontend/src/features/users/components/a.tsx'),
      errors: [
        { messageId: 'internal', data: { own: 'users', other: 'tokens', dir: 'components' } },
      ],
    },
    {
      code: "import { useX } from '@/features/tokens/hooks/use-x';",
      filename: file('frontend/src/features/users/a.ts'),
      errors: [{ messageId: 'internal', data: { own: 'users', other: 'tokens', dir: 'hooks' } }],
    },
    {
      code: "export { y } from '@/features/logs/internal/y';",
      filename: file('frontend/src/features/users/index.ts'),
      errors: [{ messageId: 'internal', data: { own: 'users', other: 'logs', dir: 'internal' } }],
    },
  ],
});
