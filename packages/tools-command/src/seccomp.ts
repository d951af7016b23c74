import { arch } from 'node:process';

/**
 * The sandbox's seccomp filter (classic BPF, the bytes bubblewrap's `--seccomp FD` reads). The
 * filesystem, PID and network namespaces contain most of what a command can do; the filter
 * closes the kernel interfaces a namespace does not:
 *
 * - **Sockets**: a read-only mount does not stop `connect()` on a socket file, and behind Unix
 *   sockets sit PostgreSQL, MySQL, the Docker daemon (root) and D-Bus — measured here: `psql -h
 *   /run/postgresql` ran SQL from inside a bubblewrap sandbox without the filter. The full
 *   sandbox may make netlink sockets only (`ip a` inside it); no Unix socket, and no IP socket
 *   either: its network namespace has nothing but its own loopback, and IP socket buffers are
 *   not charged to a cgroup v1 memory bound (measured: 1.5 GiB of kernel memory beyond a 1 GiB
 *   bound over the sandbox's loopback). `socketpair` stays allowed: it links two ends inside.
 *   The host reader (host-reader.ts), which shares the host's network namespace, may make IP
 *   and netlink sockets (`ifconfig`'s ioctls, `ss`'s sock_diag) but never `connect()`.
 * - **Namespaces**: no new user namespace (in one, uid 0 gets every capability back, and with
 *   them mounts over the sandbox's read-only covers), no other namespace, no `setns`. clone3
 *   answers ENOSYS, so the C library falls back to clone, whose flags the filter can read.
 * - **Kernel attack surface nothing here needs**: keyrings (the user's keys), io_uring (it
 *   opens and connects sockets out of seccomp's sight), bpf, perf events, userfaultfd.
 * - The x32 ABI and foreign architectures (32-bit `socketcall` multiplexes `socket` under
 *   another number): every system call of theirs fails.
 *
 * Refused calls fail with EACCES (sockets, "Permission denied") or EPERM, so programs report an
 * error instead of dying.
 */

interface SyscallTable {
  readonly arch: number;
  readonly socket: number;
  readonly connect: number;
  readonly clone: number;
  readonly unshare: number;
  /** Refused outright. */
  readonly denied: readonly number[];
}

/** clone3 and io_uring_setup have one number on every architecture (calls added after 4.20 share numbers). */
const CLONE3 = 435;
const IO_URING_SETUP = 425;

const TABLES: Record<string, SyscallTable> = {
  // setns 308, keyctl 250, add_key 248, request_key 249, perf_event_open 298, bpf 321, userfaultfd 323
  x64: {
    arch: 0xc000003e,
    socket: 41,
    connect: 42,
    clone: 56,
    unshare: 272,
    denied: [308, 250, 248, 249, 298, 321, 323, IO_URING_SETUP],
  },
  // setns 268, keyctl 219, add_key 217, request_key 218, perf_event_open 241, bpf 280, userfaultfd 282
  arm64: {
    arch: 0xc00000b7,
    socket: 198,
    connect: 203,
    clone: 220,
    unshare: 97,
    denied: [268, 219, 217, 218, 241, 280, 282, IO_URING_SETUP],
  },
};

const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
/** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET. */
const CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
/** unshare also takes CLONE_NEWTIME (in clone's flags that bit belongs to the exit signal). */
const CLONE_NEWTIME = 0x80;

const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const X32_SYSCALL_BIT = 0x40000000;

// struct seccomp_data: nr at 0, arch at 4, instruction pointer at 8, args[0] at 16 (low word first).
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0 = 16;

type Label = 'native' | 'allow' | 'eperm' | 'eacces' | 'enosys' | 'clone' | 'unshare' | 'socket';
/** A load, a return, a label, or a jump to a label when the test holds (else fall through). */
type Step = { load: number } | { ret: number } | { label: Label } | { jump: 'eq' | 'set'; k: number; to: Label };

/** Resolves labels into classic BPF's forward offsets. */
function assemble(steps: readonly Step[]): Buffer {
  const positions = new Map<Label, number>();
  let at = 0;
  for (const step of steps) {
    if ('label' in step) positions.set(step.label, at);
    else at++;
  }
  const instructions: [number, number, number, number][] = [];
  for (const step of steps) {
    if ('label' in step) continue;
    const index = instructions.length;
    if ('load' in step) instructions.push([LD_W_ABS, 0, 0, step.load]);
    else if ('ret' in step) instructions.push([RET_K, 0, 0, step.ret]);
    else {
      const offset = positions.get(step.to)! - index - 1;
      if (offset < 0 || offset > 255) throw new Error(`seccomp: jump to ${step.to} out of range`);
      instructions.push([step.jump === 'eq' ? JEQ_K : JSET_K, offset, 0, step.k]);
    }
  }
  const buffer = Buffer.alloc(instructions.length * 8);
  instructions.forEach(([code, jt, jf, k], index) => {
    buffer.writeUInt16LE(code, index * 8);
    buffer.writeUInt8(jt, index * 8 + 2);
    buffer.writeUInt8(jf, index * 8 + 3);
    buffer.writeUInt32LE(k, index * 8 + 4);
  });
  return buffer;
}

/**
 * The filter for this machine's architecture, or undefined where we have no table row.
 * `hostReader` is the host reader's filter: IP sockets allowed, `connect()` refused (the readers
 * need none: `ss` and `ip` talk netlink with sendmsg, `ps` reads /proc).
 */
export function sandboxSeccompProgram(architecture: string = arch, hostReader = false): Buffer | undefined {
  const table = TABLES[architecture];
  if (table === undefined) return undefined;
  const steps: Step[] = [
    // A foreign architecture falls through to EPERM; the native one skips it.
    { load: OFFSET_ARCH },
    { jump: 'eq', k: table.arch, to: 'native' },
    { ret: RET_ERRNO | EPERM },
    { label: 'native' },
    { load: OFFSET_NR },
    { jump: 'set', k: X32_SYSCALL_BIT, to: 'eperm' },
    ...table.denied.map((nr): Step => ({ jump: 'eq', k: nr, to: 'eperm' })),
    { jump: 'eq', k: CLONE3, to: 'enosys' },
    { jump: 'eq', k: table.clone, to: 'clone' },
    { jump: 'eq', k: table.unshare, to: 'unshare' },
    ...(hostReader ? [{ jump: 'eq', k: table.connect, to: 'eacces' } as Step] : []),
    { jump: 'eq', k: table.socket, to: 'socket' },
    { ret: RET_ALLOW },
    { label: 'clone' },
    { load: OFFSET_ARG0 },
    { jump: 'set', k: CLONE_NAMESPACES, to: 'eperm' },
    { ret: RET_ALLOW },
    { label: 'unshare' },
    { load: OFFSET_ARG0 },
    { jump: 'set', k: CLONE_NAMESPACES | CLONE_NEWTIME, to: 'eperm' },
    { ret: RET_ALLOW },
    { label: 'socket' },
    { load: OFFSET_ARG0 },
    { jump: 'eq', k: AF_NETLINK, to: 'allow' },
    ...(hostReader
      ? [{ jump: 'eq', k: AF_INET, to: 'allow' } as Step, { jump: 'eq', k: AF_INET6, to: 'allow' } as Step]
      : []),
    { label: 'eacces' },
    { ret: RET_ERRNO | EACCES },
    { label: 'eperm' },
    { ret: RET_ERRNO | EPERM },
    { label: 'enosys' },
    { ret: RET_ERRNO | ENOSYS },
    { label: 'allow' },
    { ret: RET_ALLOW },
  ];
  return assemble(steps);
}
