-- scripts may not run programs; a harmless marker shows a sandbox breach
-- (tests/broken.rs checks that lua-os-marker.txt is never created)

os.execute("echo sandbox-breach > lua-os-marker.txt")
