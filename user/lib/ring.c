// SPDX-License-Identifier: MIT
/*
 * io_uring's opcodes by name, for the trace's ring rows
 * (wsc_trace_set_ring()): the names of enum io_uring_op
 * (include/uapi/linux/io_uring.h) without their IORING_OP_ prefix,
 * written out here rather than taken from the build machine's header,
 * which may be older than the kernel traced.  The numbers are the
 * kernel's ABI: an opcode keeps its number forever.
 */
#include <stddef.h>

#include "libwsc.h"

static const char *const ring_ops[] = {
	"NOP", "READV", "WRITEV", "FSYNC", "READ_FIXED", "WRITE_FIXED",
	"POLL_ADD", "POLL_REMOVE", "SYNC_FILE_RANGE", "SENDMSG", "RECVMSG",
	"TIMEOUT", "TIMEOUT_REMOVE", "ACCEPT", "ASYNC_CANCEL", "LINK_TIMEOUT",
	"CONNECT", "FALLOCATE", "OPENAT", "CLOSE", "FILES_UPDATE", "STATX",
	"READ", "WRITE", "FADVISE", "MADVISE", "SEND", "RECV", "OPENAT2",
	"EPOLL_CTL", "SPLICE", "PROVIDE_BUFFERS", "REMOVE_BUFFERS", "TEE",
	"SHUTDOWN", "RENAMEAT", "UNLINKAT", "MKDIRAT", "SYMLINKAT", "LINKAT",
	"MSG_RING", "FSETXATTR", "SETXATTR", "FGETXATTR", "GETXATTR", "SOCKET",
	"URING_CMD", "SEND_ZC", "SENDMSG_ZC", "READ_MULTISHOT", "WAITID",
	"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_WAITV", "FIXED_FD_INSTALL",
	"FTRUNCATE", "BIND", "LISTEN", "RECV_ZC", "EPOLL_WAIT", "READV_FIXED",
	"WRITEV_FIXED", "PIPE", "NOP128", "URING_CMD128",
};

const char *wsc_ring_op_name(uint32_t op)
{
	return op < sizeof(ring_ops) / sizeof(ring_ops[0]) ? ring_ops[op] : NULL;
}
