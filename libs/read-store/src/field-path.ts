const DOT = 0x2e;

/**
 * Whether the dotted field path `path` lies under `parent` (`a.b` under `a`; `ab` does not),
 * building no string: the update check and the batch buffer's merge ask it for every write.
 */
export function isPathUnder(path: string, parent: string): boolean {
  return (
    path.length > parent.length && path.charCodeAt(parent.length) === DOT && path.startsWith(parent)
  );
}
