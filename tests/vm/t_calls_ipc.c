// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_ipc: the inter-process communication group (pipe2, sendto,
 * recvfrom, sendmsg, recvmsg) wrapped through /dev/wsc and
 * conventionally, on twin pipes, AF_UNIX pairs and UDP sockets on the
 * loopback: the same counts or errnos, bytes, addresses, flags and
 * passed descriptors.  The twin-call machinery is in twin.h.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "twin.h"

/* The guest may boot with lo down; bring it up as "ip link set lo up". */
static void lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return;
	if (!ioctl(s, SIOCGIFFLAGS, &ifr) && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
}

/* A UDP socket on 127.0.0.1 with a port of its own, and its address. */
static int udp_bound(struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int s;

	lo_up();
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_GE(s, 0);
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)sin, sizeof(*sin)))
		SKIP("bind 127.0.0.1: %s", strerror(errno));
	ASSERT_EQ(getsockname(s, (struct sockaddr *)sin, &len), 0);
	return s;
}

TEST(pipe2)
{
	int fw[2] = { -1, -1 }, fc[2] = { -1, -1 }, low;
	int flw[4], flc[4];
	char buf[16];

	low = next_fd();
	/* Numbers, flags of both ends, and data flowing, both ways alike. */
	EXPECT_EQ(W(__NR_pipe2, fw, O_CLOEXEC | O_NONBLOCK), 0);
	EXPECT_EQ(fw[0], low);
	EXPECT_EQ(fw[1], low + 1);
	flw[0] = fcntl(fw[0], F_GETFD);
	flw[1] = fcntl(fw[1], F_GETFD);
	flw[2] = fcntl(fw[0], F_GETFL);
	flw[3] = fcntl(fw[1], F_GETFL);
	EXPECT_EQ(write(fw[1], "abc", 3), 3);
	EXPECT_EQ(read(fw[0], buf, sizeof(buf)), 3);
	EXPECT_EQ(read(fw[0], buf, sizeof(buf)), -1);	/* non-blocking */
	close(fw[0]);
	close(fw[1]);
	EXPECT_EQ(S(__NR_pipe2, fc, O_CLOEXEC | O_NONBLOCK), 0);
	EXPECT_EQ(fc[0], fw[0]);
	EXPECT_EQ(fc[1], fw[1]);
	flc[0] = fcntl(fc[0], F_GETFD);
	flc[1] = fcntl(fc[1], F_GETFD);
	flc[2] = fcntl(fc[0], F_GETFL);
	flc[3] = fcntl(fc[1], F_GETFL);
	EXPECT_EQ(memcmp(flw, flc, sizeof(flw)), 0);
	EXPECT_EQ(flw[0], FD_CLOEXEC);
	EXPECT_EQ(flw[2], O_RDONLY | O_NONBLOCK);
	EXPECT_EQ(flw[3], O_WRONLY | O_NONBLOCK);
	close(fc[0]);
	close(fc[1]);

	/* O_DIRECT: packet mode keeps each write whole. */
	CHECK(0, W(__NR_pipe2, fw, O_DIRECT), S(__NR_pipe2, fc, O_DIRECT));
	EXPECT_EQ(write(fw[1], "abc", 3), 3);
	EXPECT_EQ(write(fw[1], "defg", 4), 4);
	EXPECT_EQ(write(fc[1], "abc", 3), 3);
	EXPECT_EQ(write(fc[1], "defg", 4), 4);
	EXPECT_EQ(read(fw[0], buf, sizeof(buf)), 3);
	EXPECT_EQ(read(fc[0], buf, sizeof(buf)), 3);
	EXPECT_EQ(fcntl(fw[0], F_GETFD), 0);
	close(fw[0]);
	close(fw[1]);
	close(fc[0]);
	close(fc[1]);

	/* Failures leave no descriptor behind. */
	SAME(-EINVAL, __NR_pipe2, fw, O_TRUNC);
	SAME(-EFAULT, __NR_pipe2, BADPTR, 0);
	SAME(-EFAULT, __NR_pipe2, BADPTR, O_CLOEXEC);
	EXPECT_EQ(next_fd(), low);
}

/* recvfrom(2) on twin sockets: count, bytes and sender must agree. */
static long recv_twin(int sw, int sc, size_t len, int flags, const char *want)
{
	char bw[128], bc[128];
	struct sockaddr_storage aw, ac;
	socklen_t lw = sizeof(aw), lc = sizeof(ac);
	long c;

	memset(bw, '.', sizeof(bw));
	memset(bc, '.', sizeof(bc));
	memset(&aw, 0xa5, sizeof(aw));
	memset(&ac, 0xa5, sizeof(ac));
	c = CHECK(ANY, W(__NR_recvfrom, sw, bw, len, flags, &aw, &lw),
		  S(__NR_recvfrom, sc, bc, len, flags, &ac, &lc));
	EXPECT_EQ(memcmp(bw, bc, sizeof(bw)), 0);
	EXPECT_EQ(lw, lc);
	EXPECT_EQ(memcmp(&aw, &ac, sizeof(aw)), 0);
	if (want && c > 0)
		EXPECT_EQ(memcmp(bc, want, c < (long)len ? c : (long)len), 0);
	return c;
}

TEST(sendto_recvfrom_unix)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int sw[2], sc[2], tw[2], tc[2], p[2];
	char data[64], buf[64];

	fill(data, sizeof(data), 11);
	unix_pair(SOCK_DGRAM, sw);
	unix_pair(SOCK_DGRAM, sc);

	/* Datagrams: one per call; MSG_PEEK leaves it, MSG_TRUNC tells all. */
	TWIN(20, __NR_sendto, sw[0], sc[0], data, 20, 0, NULL, 0);
	TWIN(7, __NR_sendto, sw[0], sc[0], "another", 7, 0, NULL, 0);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 64, MSG_PEEK, data), 20);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 5, MSG_TRUNC, data), 20);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 64, 0, "another"), 7);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 64, MSG_DONTWAIT, NULL), -EAGAIN);

	/* A stream: bytes, not messages. */
	unix_pair(SOCK_STREAM, tw);
	unix_pair(SOCK_STREAM, tc);
	TWIN(10, __NR_sendto, tw[0], tc[0], data, 10, 0, NULL, 0);
	TWIN(10, __NR_sendto, tw[0], tc[0], data + 10, 10, 0, NULL, 0);
	EXPECT_EQ(recv_twin(tw[1], tc[1], 15, 0, data), 15);
	EXPECT_EQ(recv_twin(tw[1], tc[1], 64, 0, data + 15), 5);

	/* A receive that faults has still taken its datagram: twins. */
	TWIN(3, __NR_sendto, sw[0], sc[0], "abc", 3, 0, NULL, 0);
	TWIN(-EFAULT, __NR_recvfrom, sw[1], sc[1], BADPTR, 64, 0, NULL, NULL);
	SAME(-EAGAIN, __NR_recvfrom, sw[1], buf, 64, MSG_DONTWAIT, NULL, NULL);
	SAME(-EAGAIN, __NR_recvfrom, sc[1], buf, 64, MSG_DONTWAIT, NULL, NULL);

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	SAME(-EBADF, __NR_sendto, NOFD, data, 1, 0, NULL, 0);
	SAME(-ENOTSOCK, __NR_sendto, p[1], data, 1, 0, NULL, 0);
	SAME(-EFAULT, __NR_sendto, sw[0], BADPTR, 10, 0, NULL, 0);
	SAME(-EOPNOTSUPP, __NR_sendto, sw[0], data, 1, MSG_OOB, NULL, 0);
	SAME(-EINVAL, __NR_sendto, sw[0], data, 1, 0, &sun, 1);
	SAME(-EBADF, __NR_recvfrom, NOFD, buf, 64, 0, NULL, NULL);
	SAME(-ENOTSOCK, __NR_recvfrom, p[0], buf, 64, 0, NULL, NULL);
	/* The peer gone: EPIPE, MSG_NOSIGNAL keeping SIGPIPE away. */
	close(tw[1]);
	SAME(-EPIPE, __NR_sendto, tw[0], data, 1, MSG_NOSIGNAL, NULL, 0);
}

TEST(sendto_recvfrom_udp)
{
	static char big[70000];
	struct sockaddr_in a1, a2, from_w, from_c, bad;
	socklen_t lw = sizeof(from_w), lc = sizeof(from_c);
	char data[64], bw[64], bc[64];
	int u1, u2;

	fill(data, sizeof(data), 12);
	u1 = udp_bound(&a1);
	u2 = udp_bound(&a2);

	/* Each way: one datagram to u2, received with u1 as its source. */
	EXPECT_EQ(W(__NR_sendto, u1, data, 30, 0, &a2, sizeof(a2)), 30);
	memset(&from_w, 0xa5, sizeof(from_w));
	EXPECT_EQ(W(__NR_recvfrom, u2, bw, sizeof(bw), 0, &from_w, &lw), 30);
	EXPECT_EQ(S(__NR_sendto, u1, data, 30, 0, &a2, sizeof(a2)), 30);
	memset(&from_c, 0x5a, sizeof(from_c));
	EXPECT_EQ(S(__NR_recvfrom, u2, bc, sizeof(bc), 0, &from_c, &lc), 30);
	EXPECT_EQ(memcmp(bw, data, 30), 0);
	EXPECT_EQ(memcmp(bc, data, 30), 0);
	EXPECT_EQ(lw, sizeof(a1));
	EXPECT_EQ(lw, lc);
	EXPECT_EQ(memcmp(&from_w, &a1, sizeof(a1)), 0);
	EXPECT_EQ(memcmp(&from_c, &a1, sizeof(a1)), 0);

	/* A bad address length pointer faults after the datagram is taken. */
	ASSERT_EQ(sendto(u1, data, 5, 0, (void *)&a2, sizeof(a2)), 5);
	ASSERT_EQ(sendto(u1, data, 5, 0, (void *)&a2, sizeof(a2)), 5);
	SAME(-EFAULT, __NR_recvfrom, u2, bw, sizeof(bw), 0, &from_w, BADPTR);
	SAME(-EAGAIN, __NR_recvfrom, u2, bw, sizeof(bw), MSG_DONTWAIT, NULL,
	     NULL);

	bad = a2;
	bad.sin_family = AF_INET6;
	SAME(-EDESTADDRREQ, __NR_sendto, u1, data, 1, 0, NULL, 0);
	SAME(-EINVAL, __NR_sendto, u1, data, 1, 0, &a2, 1);
	SAME(-EAFNOSUPPORT, __NR_sendto, u1, data, 1, 0, &bad, sizeof(bad));
	SAME(-EMSGSIZE, __NR_sendto, u1, big, sizeof(big), 0, &a2, sizeof(a2));
	SAME(-EFAULT, __NR_sendto, u1, data, 1, 0, BADPTR, sizeof(a2));
	SAME(-EFAULT, __NR_sendto, u1, BADPTR, 10, 0, &a2, sizeof(a2));
	SAME(-EAGAIN, __NR_recvfrom, u2, bw, sizeof(bw), MSG_DONTWAIT, NULL,
	     NULL);
}

/* One side's buffers for recvmsg(2): two pieces, a name, control room. */
struct rmsg {
	char b1[7], b2[40];
	struct iovec iov[2];
	struct sockaddr_storage name;
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr m;
};

static struct msghdr *rmsg_init(struct rmsg *r, size_t ctl_len, int fill_byte)
{
	memset(r, fill_byte, sizeof(*r));
	r->iov[0] = (struct iovec){ r->b1, sizeof(r->b1) };
	r->iov[1] = (struct iovec){ r->b2, sizeof(r->b2) };
	r->m = (struct msghdr){
		.msg_name = &r->name, .msg_namelen = sizeof(r->name),
		.msg_iov = r->iov, .msg_iovlen = 2,
		.msg_control = ctl_len ? r->ctl.buf : NULL,
		.msg_controllen = ctl_len,
		.msg_flags = 0x5a5a,
	};
	return &r->m;
}

/* recvmsg on twin sockets: count, bytes, name and flags must agree. */
static long recvmsg_twin(int sw, int sc, int flags, struct rmsg *rw,
			 struct rmsg *rc, size_t ctl_len)
{
	long c;

	c = CHECK(ANY, W(__NR_recvmsg, sw, rmsg_init(rw, ctl_len, 0xa5), flags),
		  S(__NR_recvmsg, sc, rmsg_init(rc, ctl_len, 0xa5), flags));
	EXPECT_EQ(memcmp(rw->b1, rc->b1, sizeof(rw->b1)), 0);
	EXPECT_EQ(memcmp(rw->b2, rc->b2, sizeof(rw->b2)), 0);
	EXPECT_EQ(rw->m.msg_namelen, rc->m.msg_namelen);
	EXPECT_EQ(memcmp(&rw->name, &rc->name, rw->m.msg_namelen), 0);
	EXPECT_EQ(rw->m.msg_flags, rc->m.msg_flags);
	EXPECT_EQ(rw->m.msg_controllen, rc->m.msg_controllen);
	return c;
}

TEST(sendmsg_recvmsg)
{
	char data[128], buf[8];
	struct iovec out[2] = { { data, 10 }, { data + 50, 15 } };
	struct iovec one = { buf, 8 };
	struct msghdr m = { .msg_iov = out, .msg_iovlen = 2 };
	struct msghdr many = { .msg_iov = out, .msg_iovlen = 1025 };
	struct msghdr mu, m1 = { .msg_iov = &one, .msg_iovlen = 1 };
	struct sockaddr_in a1, a2;
	struct rmsg rw, rc;
	int sw[2], sc[2], u1, u2, p[2];

	fill(data, sizeof(data), 13);
	unix_pair(SOCK_DGRAM, sw);
	unix_pair(SOCK_DGRAM, sc);

	/* Gathered on send, scattered on receive at other boundaries. */
	TWIN(25, __NR_sendmsg, sw[0], sc[0], &m, 0);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], 0, &rw, &rc, 0), 25);
	EXPECT_EQ(memcmp(rw.b1, data, 7), 0);
	EXPECT_EQ(memcmp(rw.b2, data + 7, 3), 0);
	EXPECT_EQ(memcmp(rw.b2 + 3, data + 50, 15), 0);
	EXPECT_EQ(rw.m.msg_flags, 0);

	/* Too long for the buffers: MSG_TRUNC, or the full length asked. */
	memset(data + 20, 'z', 40);
	out[1].iov_len = 50;
	TWIN(60, __NR_sendmsg, sw[0], sc[0], &m, 0);
	TWIN(60, __NR_sendmsg, sw[0], sc[0], &m, MSG_DONTWAIT);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], 0, &rw, &rc, 0), 47);
	EXPECT_EQ(rw.m.msg_flags, MSG_TRUNC);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], MSG_TRUNC, &rw, &rc, 0), 60);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], MSG_DONTWAIT, &rw, &rc, 0),
		  -EAGAIN);

	/* UDP: the destination on send, the source on receive. */
	u1 = udp_bound(&a1);
	u2 = udp_bound(&a2);
	mu = m;
	mu.msg_name = &a2;
	mu.msg_namelen = sizeof(a2);
	SAME(60, __NR_sendmsg, u1, &mu, 0);
	EXPECT_EQ(recvmsg_twin(u2, u2, 0, &rw, &rc, 0), 47);
	EXPECT_EQ(rw.m.msg_namelen, sizeof(a1));
	EXPECT_EQ(memcmp(&rw.name, &a1, sizeof(a1)), 0);
	EXPECT_EQ(rw.m.msg_flags, MSG_TRUNC);

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	SAME(-EBADF, __NR_sendmsg, NOFD, &m, 0);
	SAME(-ENOTSOCK, __NR_sendmsg, p[1], &m, 0);
	SAME(-EFAULT, __NR_sendmsg, sw[0], BADPTR, 0);
	SAME(-EMSGSIZE, __NR_sendmsg, sw[0], &many, 0);
	SAME(-EDESTADDRREQ, __NR_sendmsg, u1, &m, 0);
	SAME(-EOPNOTSUPP, __NR_sendmsg, sw[0], &m, MSG_OOB);
	SAME(-EBADF, __NR_recvmsg, NOFD, &m1, 0);
	SAME(-ENOTSOCK, __NR_recvmsg, p[0], &m1, 0);
	SAME(-EFAULT, __NR_recvmsg, sw[1], BADPTR, 0);
	SAME(-EMSGSIZE, __NR_recvmsg, sw[1], &many, 0);
	SAME(-EAGAIN, __NR_recvmsg, sw[1], &m1, MSG_DONTWAIT);
}

/* Passing a descriptor: the one received is the lowest free number. */
TEST_IN_TMP(sendmsg_recvmsg_rights)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { "x", 1 };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *cm = (struct cmsghdr *)ctl.buf;
	struct stat sa, st;
	struct rmsg rw, rc;
	int sw[2], sc[2], fa, fw, fc, low;

	put("a", "x", 1);
	fa = xopen("a", O_RDONLY);
	ASSERT_EQ(fstat(fa, &sa), 0);
	unix_pair(SOCK_DGRAM, sw);
	unix_pair(SOCK_DGRAM, sc);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fa, sizeof(int));
	low = next_fd();

	TWIN(1, __NR_sendmsg, sw[0], sc[0], &m, 0);
	TWIN(1, __NR_sendmsg, sw[0], sc[0], &m, 0);

	/* Received wrapped: a new descriptor for the same file, cloexec. */
	EXPECT_EQ(W(__NR_recvmsg, sw[1], rmsg_init(&rw, sizeof(rw.ctl), 0),
		    MSG_CMSG_CLOEXEC), 1);
	cm = CMSG_FIRSTHDR(&rw.m);
	ASSERT_TRUE(cm);
	EXPECT_EQ(cm->cmsg_level, SOL_SOCKET);
	EXPECT_EQ(cm->cmsg_type, SCM_RIGHTS);
	EXPECT_EQ(cm->cmsg_len, CMSG_LEN(sizeof(int)));
	memcpy(&fw, CMSG_DATA(cm), sizeof(int));
	EXPECT_EQ(fw, low);
	ASSERT_EQ(fstat(fw, &st), 0);
	EXPECT_EQ(st.st_ino, sa.st_ino);
	EXPECT_EQ(fcntl(fw, F_GETFD), FD_CLOEXEC);
	close(fw);

	/* Conventionally: the same number, the same control message. */
	EXPECT_EQ(S(__NR_recvmsg, sc[1], rmsg_init(&rc, sizeof(rc.ctl), 0),
		    MSG_CMSG_CLOEXEC), 1);
	memcpy(&fc, CMSG_DATA(CMSG_FIRSTHDR(&rc.m)), sizeof(int));
	EXPECT_EQ(fc, fw);
	EXPECT_EQ(rw.m.msg_controllen, rc.m.msg_controllen);
	EXPECT_EQ(rw.m.msg_flags, rc.m.msg_flags);
	EXPECT_EQ(memcmp(rw.ctl.buf, rc.ctl.buf, rw.m.msg_controllen), 0);
	close(fc);

	/* No room for the descriptor: MSG_CTRUNC, and none installed. */
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], 0, &rw, &rc,
			       sizeof(struct cmsghdr)), 1);
	EXPECT_EQ(rw.m.msg_flags, MSG_CTRUNC);
	EXPECT_EQ(next_fd(), low);

	/* A bad descriptor, and a control header too short to be one. */
	cm = (struct cmsghdr *)ctl.buf;
	fw = NOFD;
	memcpy(CMSG_DATA(cm), &fw, sizeof(int));
	SAME(-EBADF, __NR_sendmsg, sw[0], &m, 0);
	cm->cmsg_len = 4;
	SAME(-EINVAL, __NR_sendmsg, sw[0], &m, 0);
	SAME(-EAGAIN, __NR_recvmsg, sw[1], rmsg_init(&rw, 0, 0), MSG_DONTWAIT);
}


TEST_HARNESS_MAIN
