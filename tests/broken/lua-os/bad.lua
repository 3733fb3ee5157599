-- scripts may not run programs

os.execute("rm -rf /")
