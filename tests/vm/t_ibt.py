#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Every function wsc.ko calls through a pointer can be called under IBT:
the handlers and the syscall tracepoints' iterators.

On a kernel built with CONFIG_X86_KERNEL_IBT, an indirect call must land
on an ENDBR64 instruction, and the kernel seals (overwrites) the ENDBR of
every function whose address nothing takes.  QEMU's TCG does not enforce
IBT, so a missing ENDBR would go unnoticed in the VM and trap on real
hardware.  This test reads the live bytes of every allowlisted call's
handler from /proc/kcore, as the module does at load, independently of
it: the names from the kernel's generated <asm/syscalls_64.h>, the
addresses from /proc/kallsyms.

Runs in the VM as root with wsc.ko loaded; TAP on stdout.
"""
import gzip
import json
import os
import re
import struct
import subprocess
import sys

ENDBR64 = bytes.fromhex("f30f1efa")
RELEASE = os.uname().release
tests = []


def ok(good, what, skip=None):
    tests.append((good, what, skip))


def ibt_config():
    """'y' or 'n' from the kernel's config, or None if it cannot be found."""
    for path in (f"/boot/config-{RELEASE}", f"/lib/modules/{RELEASE}/config",
                 f"/usr/lib/modules/{RELEASE}/config", "/proc/config.gz"):
        try:
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rt") as f:
                text = f.read()
        except OSError:
            continue
        return "y" if re.search(r"^CONFIG_X86_KERNEL_IBT=y$", text, re.M) else "n"
    return None


def handler_names():
    """Number -> handler name, from the header the kernel's table is built from."""
    header = (f"/lib/modules/{RELEASE}/build/arch/x86/include/generated/"
              "asm/syscalls_64.h")
    names = {}
    with open(header) as f:
        for m in re.finditer(r"__SYSCALL(?:_NORETURN)?\((\d+),\s*(\w+)\)", f.read()):
            names[int(m.group(1))] = "__x64_" + m.group(2)
    return names


def kallsyms():
    addrs = {}
    with open("/proc/kallsyms") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tT":
                addrs.setdefault(parts[2], int(parts[0], 16))
    return addrs


class Kcore:
    """Reads kernel memory through /proc/kcore's ELF program headers."""

    def __init__(self):
        self.f = open("/proc/kcore", "rb")
        ehdr = self.f.read(64)
        if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2:
            raise OSError("/proc/kcore is not a 64-bit ELF file")
        phoff, = struct.unpack_from("<Q", ehdr, 32)
        phentsize, phnum = struct.unpack_from("<HH", ehdr, 54)
        self.loads = []
        for i in range(phnum):
            self.f.seek(phoff + i * phentsize)
            p_type, _flags, off, vaddr, _pa, filesz = struct.unpack(
                "<IIQQQQ", self.f.read(40))
            if p_type == 1:
                self.loads.append((vaddr, filesz, off))

    def read(self, addr, size):
        for vaddr, filesz, off in self.loads:
            if vaddr <= addr and addr + size <= vaddr + filesz:
                self.f.seek(off + addr - vaddr)
                return self.f.read(size)
        raise OSError(f"{addr:#x} is in no segment of /proc/kcore")


def main():
    wsc = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "..", "..", "build", "wsc")
    info = json.loads(subprocess.run([wsc, "info", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    calls = [c for c in info["calls"] if c["nr"] >= 0]
    ok(len(calls) > 0, "wsc info lists the allowlisted calls")

    ibt = ibt_config()
    ok(ibt is not None, f"the kernel's config says whether it has IBT ({ibt})")
    names = handler_names()
    addrs = kallsyms()
    ok(len(addrs) > 1000 and min(addrs.values()) > 0,
       "/proc/kallsyms gives addresses (kptr_restrict lets root see them)")
    kcore = Kcore()

    # What made kallsyms_lookup_name unusable: report it, whatever it is.
    if "kallsyms_lookup_name" in addrs:
        head = kcore.read(addrs["kallsyms_lookup_name"], 4)
        print(f"# kallsyms_lookup_name begins with {head.hex()}"
              f"{' (ENDBR64)' if head == ENDBR64 else ' (no ENDBR64: sealed or never there)'}")

    for c in calls:
        name = names.get(c["nr"])
        if name is None or name not in addrs:
            ok(False, f"{c['name']} ({c['nr']}): handler {name} not found")
            continue
        head = kcore.read(addrs[name], 4)
        if ibt == "y":
            ok(head == ENDBR64,
               f"{c['name']}: {name} begins with ENDBR64 (read {head.hex()})")
        else:
            ok(True, f"{c['name']}: {name}",
               skip=f"kernel built without IBT, no ENDBR64 needed (read {head.hex()})")

    # The syscall tracepoints' iterators, which wsc.ko calls through the
    # pointer in struct tracepoint to fire sys_enter and sys_exit for each
    # wrapped call (kmod/syscall_tp.c); it checks them at load too, and
    # says in the kernel log when it cannot fire them.
    for name in ("__traceiter_sys_enter", "__traceiter_sys_exit"):
        if name not in addrs:
            ok(False, f"{name} not found in /proc/kallsyms")
            continue
        head = kcore.read(addrs[name], 4)
        if ibt == "y":
            ok(head == ENDBR64, f"{name} begins with ENDBR64 (read {head.hex()})")
        else:
            ok(True, name,
               skip=f"kernel built without IBT, no ENDBR64 needed (read {head.hex()})")
    log = subprocess.run(["dmesg"], capture_output=True, text=True).stdout
    ok("cannot be fired for wrapped calls" not in log,
       "wsc.ko fires the syscall tracepoints on this kernel (its load said nothing against it)")
    print("TAP version 13")
    print(f"1..{len(tests)}")
    for i, (good, what, skip) in enumerate(tests, 1):
        line = f"{'ok' if good else 'not ok'} {i} {what}"
        if skip:
            line += f" # SKIP {skip}"
        print(line)
    return 0 if all(t[0] for t in tests) else 1


if __name__ == "__main__":
    sys.exit(main())
