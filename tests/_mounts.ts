/**
 * Small real filesystems for error-path tests: a size-limited tmpfs (full
 * disk) and a read-only remount. Mounting needs root with CAP_SYS_ADMIN on
 * Linux; `mountTmpfs.probe()` says whether it works here, so tests can skip
 * with the reason instead of failing on machines that cannot mount.
 *
 * @module
 */

function mountCmd(args: string[]): Deno.CommandOutput {
  return new Deno.Command("mount", { args, stdout: "null", stderr: "piped" }).outputSync();
}

/**
 * Mounts a tmpfs of `size` (e.g. "1m") on `dir`, creating `dir`.
 *
 * @example
 * ```ts
 * await mountTmpfs("/tmp/x/small", "1m");
 * await unmount("/tmp/x/small");
 * ```
 */
export async function mountTmpfs(dir: string, size: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const out = mountCmd(["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  if (!out.success) {
    throw new Error(`mount tmpfs on ${dir} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Why tmpfs mounts cannot be used here, or null when they can (tries one). */
mountTmpfs.probe = (): string | null => {
  if (Deno.build.os !== "linux") return "mounting a tmpfs needs Linux";
  if (Deno.uid() !== 0) return "mounting a tmpfs needs root";
  const dir = Deno.makeTempDirSync({ prefix: "mount_probe_" });
  try {
    const out = mountCmd(["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
    if (!out.success) return `mount failed: ${new TextDecoder().decode(out.stderr).trim()}`;
    new Deno.Command("umount", { args: [dir] }).outputSync();
    return null;
  } catch (err) {
    return `mount is not available: ${(err as Error).message}`;
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
};

/**
 * Remounts the filesystem on `dir` read-only.
 *
 * @example
 * ```ts
 * remountReadOnly("/tmp/x/small");
 * ```
 */
export function remountReadOnly(dir: string): void {
  const out = mountCmd(["-o", "remount,ro", dir]);
  if (!out.success) {
    throw new Error(`remount ${dir} read-only failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Unmounts `dir` (lazily, so a process still holding a file cannot block it). */
export async function unmount(dir: string): Promise<void> {
  await new Deno.Command("umount", { args: ["-l", dir] }).output();
}
