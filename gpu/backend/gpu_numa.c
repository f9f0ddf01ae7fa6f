/* gpu_numa.c - see gpu_numa.h. */
#include "gpu_numa.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_file.h"

bool gpu_cpulist_parse(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    bool any = false;
    while (*s && *s != '\n') {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (end == s || lo < 0) return false;
        s = end;
        if (*s == '-') {
            hi = strtol(s + 1, &end, 10);
            if (end == s + 1 || hi < lo) return false;
            s = end;
        }
        if (hi >= CPU_SETSIZE) return false;
        for (long c = lo; c <= hi; c++) CPU_SET((int)c, set);
        any = true;
        if (*s == ',') s++;
        else if (*s && *s != '\n') return false;
    }
    return any;
}

static bool read_line(const char *path, char *buf, size_t n)
{
    FILE *f = gpu_file_open(path, 64u << 10, 0, NULL, 0); /* sysfs, or a test's tree */
    if (!f) return false;
    bool ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    return ok;
}

/* sysfs spells the bus id lower-case with a 4-digit domain; cudart may not. */
static bool sysfs_dir(const char *sysfs, const char *pci_bus_id, char *dir, size_t n)
{
    unsigned dom, bus, dev, fn;
    if (!pci_bus_id || sscanf(pci_bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4) return false;
    snprintf(dir, n, "%s/bus/pci/devices/%04x:%02x:%02x.%x", sysfs, dom, bus, dev, fn);
    return true;
}

int gpu_numa_node(const char *sysfs, const char *pci_bus_id)
{
    char dir[400], path[512], line[64];
    if (!sysfs_dir(sysfs, pci_bus_id, dir, sizeof dir)) return -1;
    snprintf(path, sizeof path, "%s/numa_node", dir);
    if (!read_line(path, line, sizeof line)) return -1;
    int node = atoi(line);
    return node >= 0 ? node : -1; /* -1: the platform does not say (one node, most VMs) */
}

int gpu_numa_bind(const char *sysfs, const char *pci_bus_id, struct gpu_numa_pin *p)
{
    char dir[400], path[512], line[4096];
    cpu_set_t local;
    p->pinned = false;
    p->node = gpu_numa_node(sysfs, pci_bus_id);
    if (p->node < 0 || !sysfs_dir(sysfs, pci_bus_id, dir, sizeof dir)) return -1;
    const int node = p->node;
    snprintf(path, sizeof path, "%s/local_cpulist", dir);
    if (!read_line(path, line, sizeof line) || !gpu_cpulist_parse(line, &local)) return node;
    if (pthread_getaffinity_np(pthread_self(), sizeof p->saved, &p->saved)) return node;
    /* only CPUs this thread may run on already (a cgroup or taskset may allow fewer) */
    CPU_AND(&local, &local, &p->saved);
    if (CPU_COUNT(&local) == 0) return node;
    p->pinned = pthread_setaffinity_np(pthread_self(), sizeof local, &local) == 0;
    return node;
}

void gpu_numa_unbind(struct gpu_numa_pin *p)
{
    if (p->pinned) (void)pthread_setaffinity_np(pthread_self(), sizeof p->saved, &p->saved);
    p->pinned = false;
}
