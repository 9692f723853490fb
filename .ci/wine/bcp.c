/* bcryptprimitives.dll for Wine 8, which lacks it, for .ci/wine/test only:
   Go 1.24 and later call ProcessPrng at start. It fills the buffer from
   RtlGenRandom (advapi32's SystemFunction036), at most 1 GiB a call. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved) { return TRUE; }
