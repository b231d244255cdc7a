import { Role } from '@tollgate/contracts';
import { FIXED_NOW, spec } from '@tollgate/testing';
import type { BindExternalIdentity } from './user.commands';
import { userDecider } from './user.decider';
import type { ExternalProvider, UserEvent } from './user.events';
import { evolveUser, initialUserState } from './user.state';

const USER_ID = 7;

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: USER_ID,
    username: 'alice',
    displayName: 'Alice',
    passwordHash: 'argon2id$hash',
    role: Role.Common,
    group: 'default',
    email: '',
    inviterId: 0,
    affCode: 'AbCd',
    source: 'github',
  },
};

const bound = (provider: ExternalProvider, externalId: string): UserEvent => ({
  type: 'UserExternalIdentityBound',
  data: { userId: USER_ID, provider, externalId },
});

const bind = (provider: ExternalProvider, externalId: string): BindExternalIdentity => ({
  type: 'BindExternalIdentity',
  provider,
  externalId,
});

describe('userDecider: BindExternalIdentity', () => {
  it('binds a provider id to a registered user', () => {
    spec(userDecider)
      .given([registered])
      .when(bind('github', '12345'))
      .then([bound('github', '12345')]);
  });

  it('binds one id per provider, each provider on its own', () => {
    spec(userDecider)
      .given([registered, bound('github', '12345'), bound('wechat', 'wx-openid')])
      .when(bind('telegram', '99'))
      .then([bound('telegram', '99')]);
  });

  it('binding the same id again changes nothing', () => {
    spec(userDecider)
      .given([registered, bound('oidc', 'sub-1')])
      .when(bind('oidc', 'sub-1'))
      .then([]);
  });

  it('refuses another id for a provider already bound (no silent replacement)', () => {
    spec(userDecider)
      .given([registered, bound('github', '12345')])
      .when(bind('github', '67890'))
      .thenRejects('oauth.provider_already_bound', { provider: 'github' });
  });

  it('trims the id and refuses an empty or overlong one', () => {
    spec(userDecider)
      .given([registered])
      .when(bind('wechat', '  wx-1  '))
      .then([bound('wechat', 'wx-1')]);
    spec(userDecider)
      .given([registered])
      .when(bind('wechat', '   '))
      .thenRejects('oauth.external_id_invalid');
    spec(userDecider)
      .given([registered])
      .when(bind('oidc', 'x'.repeat(256)))
      .thenRejects('oauth.external_id_invalid');
  });

  it('refuses an unknown provider', () => {
    spec(userDecider)
      .given([registered])
      .when({
        type: 'BindExternalIdentity',
        provider: 'myspace' as ExternalProvider,
        externalId: '1',
      })
      .thenRejects('common.invalid_params');
  });

  it('refuses unknown and deregistered users', () => {
    spec(userDecider).given([]).when(bind('github', '1')).thenRejects('user.not_found');
    spec(userDecider)
      .given([registered, { type: 'UserDeregistered', data: { userId: USER_ID, by: 'self' } }])
      .when(bind('github', '1'))
      .thenRejects('user.deregistered');
  });

  it('a state folded from a snapshot without identities binds as if none were bound', () => {
    const { identities: _none, ...older } = evolveUser(initialUserState, registered);
    expect(userDecider.decide(bind('github', '5'), older, { now: FIXED_NOW })).toEqual([
      bound('github', '5'),
    ]);
  });
});
