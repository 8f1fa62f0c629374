/* SPDX-License-Identifier: GPL-2.0 */
/* device.c: /dev/wsc, its open files and its ioctls. */
#ifndef _WSC_DEVICE_H
#define _WSC_DEVICE_H

int wsc_device_init(void);
void wsc_device_exit(void);

#endif /* _WSC_DEVICE_H */
