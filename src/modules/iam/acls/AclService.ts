import type { Rejection } from '../../../kernel/Rejection.js';
import type { AclIndex } from '../AclIndex.js';
import type { AclPath } from '../AclPath.js';
import type { Caller } from '../../../kernel/Caller.js';
import type { Clock } from '../../../kernel/Clock.js';
import { aclKey } from '../../../kernel/logKeys.js';
import type { Lifecycle } from '../../../domain/Lifecycle.js';
import { rejections } from '../../../domain/rejections.js';
import type { AclCommand, AclContext, AclEntry, AclEvent, AclState } from './Acl.js';
import { evaluateAcl } from './Acl.js';

/** ACLs on `/`, `/{org}`, `/{org}/{project}`: replaced, appended to, subtracted from, deleted, each with `rev`. */
export class AclService {
  constructor(
    private readonly index: AclIndex,
    private readonly lifecycle: Lifecycle,
    /** The permissions and realms an ACL may name, as they are now. */
    private readonly context: () => AclContext,
    private readonly clock: Clock,
  ) {}

  write(path: AclPath, op: 'Replace' | 'Append' | 'Subtract', rev: number, acl: AclEntry[], caller: Caller): Promise<AclState> {
    return this.run({ type: op, path, rev, acl, instant: this.clock.now(), subject: caller.subject });
  }

  delete(path: AclPath, rev: number, caller: Caller): Promise<AclState> {
    return this.run({ type: 'Delete', path, rev, instant: this.clock.now(), subject: caller.subject });
  }

  private async run(cmd: AclCommand): Promise<AclState> {
    const context = this.context();
    const definition = {
      kind: 'acls' as const,
      evaluate: (state: AclState | undefined, c: AclCommand): AclEvent | Rejection => evaluateAcl(state, c, context),
      conflict: (_state: AclState | undefined, c: AclCommand, actual: number) => rejections.incorrectRev(c.rev, actual),
    };
    await this.lifecycle.run(definition, this.index.get(cmd.path), cmd, { key: aclKey(cmd.path) });
    return this.index.get(cmd.path)!;
  }
}
