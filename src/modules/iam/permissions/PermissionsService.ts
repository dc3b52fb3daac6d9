import type { Rejection } from '../../../kernel/Rejection.js';
import type { Caller } from '../../../kernel/Caller.js';
import type { Clock } from '../../../kernel/Clock.js';
import { PERMISSIONS_KEY } from '../../../kernel/logKeys.js';
import type { Lifecycle } from '../../../domain/Lifecycle.js';
import { rejections } from '../../../domain/rejections.js';
import type { PermissionsCommand, PermissionsEvent, PermissionsState } from './Permissions.js';
import { evaluatePermissions } from './Permissions.js';
import { revisionOf } from '../../../domain/earlierRevisions.js';

/** The service's set of permissions: the minimum can never be removed. */
export class PermissionsService {
  constructor(
    private readonly current: () => PermissionsState,
    private readonly minimum: readonly string[],
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
  ) {}

  /** The permissions, at revision `rev` when given (0: the minimum a fresh service starts with). */
  fetch(rev?: number): PermissionsState {
    return revisionOf(this.current(), rev);
  }

  write(op: 'Replace' | 'Append' | 'Subtract', rev: number, permissions: string[], caller: Caller): Promise<PermissionsState> {
    return this.run({ type: op, rev, permissions, instant: this.clock.now(), subject: caller.subject });
  }

  delete(rev: number, caller: Caller): Promise<PermissionsState> {
    return this.run({ type: 'Delete', rev, instant: this.clock.now(), subject: caller.subject });
  }

  private async run(cmd: PermissionsCommand): Promise<PermissionsState> {
    const definition = {
      kind: 'permissions' as const,
      evaluate: (state: PermissionsState | undefined, c: PermissionsCommand): PermissionsEvent | Rejection =>
        evaluatePermissions(state ?? this.current(), c, this.minimum),
      conflict: (_state: PermissionsState | undefined, c: PermissionsCommand, actual: number) => rejections.incorrectRev(c.rev, actual),
    };
    await this.lifecycle.run(definition, this.current(), cmd, { key: PERMISSIONS_KEY });
    return this.current();
  }
}
