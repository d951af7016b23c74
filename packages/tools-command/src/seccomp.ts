import { arch } from 'node:process';

/**
 * A tiny seccomp filter (classic BPF, the bytes bubblewrap's `--seccomp FD` reads) for the
 * sandbox. Why it is needed: `--unshare-net` cuts the network, but a Unix socket on the
 * read-only filesystem can still be connected to (a read-only mount does not stop `connect()`
 * on a socket file), and behind such sockets sit PostgreSQL, MySQL, the Docker daemon (root)
 * and D-Bus (systemd). Measured here: `psql -h /run/postgresql` and `mysql -uroot` ran SQL from
 * inside a bubblewrap sandbox without it. So the filter refuses:
 *
 * - `socket(AF_UNIX, …)`: no Unix socket can be made, so none can be connected to (abstract
 *   ones are per network namespace anyway). `socketpair` stays allowed: it only links two
 *   ends inside the sandbox.
 * - `io_uring_setup`: io_uring can open and connect sockets without the `socket` system call,
 *   out of seccomp's sight.
 * - the x32 ABI and foreign architectures (32-bit `socketcall` multiplexes `socket` under
 *   another number): every system call of theirs fails.
 *
 * Refused calls fail with EACCES, so programs report "Permission denied" instead of dying.
 */

const AUDIT_ARCH: Record<string, { readonly arch: number; readonly socket: number; readonly connect: number }> = {
  x64: { arch: 0xc000003e, socket: 41, connect: 42 },
  arm64: { arch: 0xc00000b7, socket: 198, connect: 203 },
};
/** io_uring_setup has one number on every architecture (system calls added after 4.20 share numbers). */
const IO_URING_SETUP = 425;
const AF_UNIX = 1;
const EACCES = 13;

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

type Instruction = readonly [code: number, jt: number, jf: number, k: number];

/**
 * The filter for this machine's architecture, or undefined where we have no table row.
 * `denyConnect` is for the host reader (host-reader.ts), which shares the host's network
 * namespace: no `connect()` at all, so not even a TCP connection to a loopback port can be made
 * (the readers need none: `ss` and `ip` talk netlink with sendmsg, `ps` reads /proc).
 */
export function sandboxSeccompProgram(architecture: string = arch, denyConnect = false): Buffer | undefined {
  const row = AUDIT_ARCH[architecture];
  if (row === undefined) return undefined;
  const program: Instruction[] = [
    /* 0 */ [LD_W_ABS, 0, 0, OFFSET_ARCH],
    /* 1 */ [JEQ_K, 0, 8, row.arch], // foreign architecture → deny (10)
    /* 2 */ [LD_W_ABS, 0, 0, OFFSET_NR],
    /* 3 */ [JSET_K, 6, 0, X32_SYSCALL_BIT], // x32 → deny (10)
    /* 4 */ [JEQ_K, 5, 0, IO_URING_SETUP], // → deny (10)
    // connect → deny (10) for the host reader; for the others a number no call has (never matches).
    /* 5 */ [JEQ_K, 4, 0, denyConnect ? row.connect : 0xffffffff],
    /* 6 */ [JEQ_K, 0, 2, row.socket], // not socket → allow (9)
    /* 7 */ [LD_W_ABS, 0, 0, OFFSET_ARG0],
    /* 8 */ [JEQ_K, 1, 0, AF_UNIX], // → deny (10), else allow (9)
    /* 9 */ [RET_K, 0, 0, RET_ALLOW],
    /* 10 */ [RET_K, 0, 0, RET_ERRNO | EACCES],
  ];
  const buffer = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    buffer.writeUInt16LE(code, index * 8);
    buffer.writeUInt8(jt, index * 8 + 2);
    buffer.writeUInt8(jf, index * 8 + 3);
    buffer.writeUInt32LE(k, index * 8 + 4);
  });
  return buffer;
}
